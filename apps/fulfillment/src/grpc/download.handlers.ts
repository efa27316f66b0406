import { fulfillment } from '@storefront/proto/fulfillment';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { DownloadsDomain } from '../domain/downloads';
import { isExpired } from '../domain/downloads/downloads';
import type { DownloadPermission } from '../domain/downloads/types';

function toProto(p: DownloadPermission, now: Date): fulfillment.DownloadPermission {
  return {
    permissionId: p.id,
    downloadId: p.downloadId,
    productId: p.productId,
    productName: p.productName,
    downloadName: p.downloadName,
    fileName: p.file.split('/').filter(Boolean).pop() ?? '',
    orderId: p.orderId,
    downloadsRemaining: p.downloadsRemaining,
    downloadCount: p.downloadCount,
    accessExpires: p.accessExpires ? p.accessExpires.toISOString() : '',
    isExpired: isExpired(p, now),
    accessGranted: p.accessGranted.toISOString(),
  };
}

export function downloadHandlers(domain: DownloadsDomain): ServiceHandlers<typeof fulfillment.DownloadServiceService> {
  return {
    async listMyDownloads(req, caller) {
      const perPage = Math.min(100, Math.max(1, req.perPage || 20));
      const page = Math.max(1, req.page || 1);
      const { permissions, total, now } = await domain.downloads.listForCustomer(caller.userId, page, perPage);
      return { downloads: permissions.map((p) => toProto(p, now)), total };
    },
    async getMyDownload(req, caller) {
      const { permission, now } = await domain.downloads.getForCustomer(caller.userId, Number(req.permissionId));
      return { download: toProto(permission, now) };
    },
    async signDownload(req, caller) {
      const signed = await domain.downloads.sign(caller.userId, Number(req.permissionId), Number(req.expiresIn), req.siteUrl);
      return { url: signed.url, expiresIn: signed.expiresIn, expiresAt: signed.expiresAt.toISOString(), fileName: signed.fileName };
    },
    async openDownload(req) {
      return domain.downloads.open(Number(req.permissionId), Number(req.expires), req.signature, req.probe);
    },
    async readDownloadChunk(req) {
      return domain.downloads.readChunk(req.sessionId, Number(req.offset), req.length);
    },
    async completeDownload(req) {
      return { downloadsRemaining: (await domain.downloads.complete(req.sessionId)).downloadsRemaining };
    },
    async abandonDownload(req) {
      await domain.downloads.abandon(req.sessionId);
      return {};
    },
    async syncBundlePurchasers(req) {
      const r = await domain.bundles.sync(Number(req.bundleId), Math.max(1, req.page || 1), Math.min(100, Math.max(1, req.perPage || 25)));
      return {
        total: r.total,
        page: r.page,
        perPage: r.perPage,
        processed: r.processed,
        grantedDownloads: r.grantedDownloads,
        syncedOrders: r.syncedOrders,
        done: r.done,
        nextPage: r.nextPage ?? 0,
      };
    },
  };
}
