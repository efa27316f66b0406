import type { EventHandler } from '@storefront/events';
import type { fulfillment } from '@storefront/proto/fulfillment';
import { incrementTotalDownloads } from '../persistence/download-stats.repository';

/** fulfillment.download_completed -> the customer's total_downloads (exactly once per event). */
export function onDownloadCompleted(): EventHandler<fulfillment.DownloadCompleted> {
  return async ({ payload }, em) => {
    if (payload.customerId) await incrementTotalDownloads(em, Number(payload.customerId));
  };
}
