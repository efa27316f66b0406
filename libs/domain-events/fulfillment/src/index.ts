import { defineEvent } from '@storefront/events';
import { fulfillment } from '@storefront/proto/fulfillment';

/** Events of the fulfillment service (proto/shop/fulfillment/v1/downloads.proto, quote.proto). */
export const FulfillmentEvents = {
  quoteRulesChanged: defineEvent('fulfillment', 'quote_rules_changed', fulfillment.QuoteRulesChanged),
  downloadsGranted: defineEvent('fulfillment', 'downloads_granted', fulfillment.DownloadsGranted),
  downloadCompleted: defineEvent('fulfillment', 'download_completed', fulfillment.DownloadCompleted),
  bundlePurchasersSynced: defineEvent('fulfillment', 'bundle_purchasers_synced', fulfillment.BundlePurchasersSynced),
};
