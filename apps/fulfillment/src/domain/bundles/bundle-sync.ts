import { recordEvent } from '@storefront/events';
import { FulfillmentEvents } from '@storefront/domain-events/fulfillment';
import { notFound } from '@storefront/errors';
import { insertPermissions, paidOrdersWithProduct } from '../../persistence/downloads.repository';
import type { DownloadsDeps } from '../downloads/deps';
import { permissionsFor } from '../downloads/grants';

export interface BundleSyncResult {
  total: number;
  page: number;
  perPage: number;
  processed: number;
  grantedDownloads: number;
  syncedOrders: number[];
  done: boolean;
  nextPage: number | null;
}

/**
 * Bundle purchaser sync (spec 2.12, 4.17): one page of the paid orders that
 * contain the bundle gets the permissions of products added to the bundle
 * since (existing grants are left alone), then an addon-listenable event.
 */
export class BundleSync {
  constructor(private readonly deps: DownloadsDeps) {}

  async sync(bundleId: number, page: number, perPage: number): Promise<BundleSyncResult> {
    const bundle = (await this.deps.products.lookup([bundleId])).get(bundleId);
    // A product that is not a bundle has no purchasers to sync: the same answer as an unknown id.
    if (!bundle || bundle.productType !== 'bundle') throw notFound('shop_rest_invalid_product_id', 'Invalid bundle ID.');
    const members = bundle.bundleProductIds.length ? await this.deps.products.lookup(bundle.bundleProductIds) : new Map();
    return this.deps.db.em().transactional(async (em) => {
      const { orders, total } = await paidOrdersWithProduct(em, bundleId, perPage, (page - 1) * perPage);
      const now = this.deps.now();
      let granted = 0;
      for (const order of orders) {
        if (!order.customerId) continue;
        const grants = [...members.values()].flatMap((p) => permissionsFor(p, order, now));
        const created = await insertPermissions(em, grants);
        granted += created.length;
        if (created.length) {
          recordEvent(em, FulfillmentEvents.downloadsGranted, {
            orderId: order.orderId,
            customerId: order.customerId,
            permissionIds: created.map((p) => p.id),
            productIds: [...new Set(created.map((p) => p.productId))],
            reason: 'bundle_sync',
          });
        }
      }
      const syncedOrders = orders.map((o) => o.orderId);
      recordEvent(em, FulfillmentEvents.bundlePurchasersSynced, {
        bundleId,
        page,
        syncedOrders,
        grantedDownloads: granted,
        productIds: [...members.keys()],
      });
      const done = page * perPage >= total;
      return { total, page, perPage, processed: orders.length, grantedDownloads: granted, syncedOrders, done, nextPage: done ? null : page + 1 };
    });
  }
}
