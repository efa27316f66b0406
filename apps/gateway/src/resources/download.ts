import { Type } from 'typebox';
import type { fulfillment } from '@storefront/proto/fulfillment';
import type { FastifyRequest } from 'fastify';
import { formatDateTime } from '../http/dates';
import { resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';

/** A download permission (spec 2.10). */
export const DownloadPermissionSchema = Type.Object(
  {
    permission_id: Type.Integer({ readOnly: true }),
    download_id: Type.String(),
    product_id: Type.Integer(),
    product_name: Type.String(),
    download_name: Type.String(),
    file_name: Type.String(),
    order_id: Type.Integer(),
    downloads_remaining: Type.Integer({ description: 'Downloads left; -1 = unlimited.' }),
    download_count: Type.Integer({ description: 'Completed downloads so far.' }),
    access_granted: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DD HH:MM:SS (UTC).' }),
    access_expires: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DD HH:MM:SS (UTC); null = never.' }),
    is_expired: Type.Boolean(),
    _links: LinksSchema,
  },
  { title: 'DownloadPermission' },
);

export const SignedDownloadSchema = Type.Object(
  {
    url: Type.String({ description: 'HMAC-signed link to the file.' }),
    expires_in: Type.Integer({ description: 'Seconds the link is valid (30 to 3600).' }),
    expires_at: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DD HH:MM:SS (UTC).' }),
    file_name: Type.String(),
  },
  { title: 'SignedDownload' },
);

export const BundleSyncResultSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Paid orders containing the bundle.' }),
    page: Type.Integer(),
    per_page: Type.Integer(),
    processed: Type.Integer({ description: 'Orders walked on this page.' }),
    granted_downloads: Type.Integer({ description: 'New permissions granted on this page.' }),
    synced_orders: Type.Array(Type.Integer()),
    done: Type.Boolean({ description: 'No work left.' }),
    next_page: Type.Union([Type.Integer(), Type.Null()], { description: 'The page to ask next; null when done.' }),
  },
  { title: 'BundleSyncResult' },
);

const date = (iso: string) => (iso ? formatDateTime(new Date(iso)) : null);

const COLLECTION = '/shop/v1/me/downloads';

export function downloadPermissionResource(request: FastifyRequest, p: fulfillment.DownloadPermission) {
  return {
    permission_id: Number(p.permissionId),
    download_id: p.downloadId,
    product_id: Number(p.productId),
    product_name: p.productName,
    download_name: p.downloadName,
    file_name: p.fileName,
    order_id: Number(p.orderId),
    downloads_remaining: p.downloadsRemaining,
    download_count: p.downloadCount,
    access_granted: date(p.accessGranted),
    access_expires: date(p.accessExpires),
    is_expired: p.isExpired,
    _links: resourceLinks(request, `${COLLECTION}/${Number(p.permissionId)}`, COLLECTION),
  };
}
