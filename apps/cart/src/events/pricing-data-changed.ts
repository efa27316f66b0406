import { CatalogEvents } from '@storefront/domain-events/catalog';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { FulfillmentEvents } from '@storefront/domain-events/fulfillment';
import type { EventTransport } from '@storefront/events';

/**
 * Changes of what a priced cart snapshot was computed from: store settings,
 * catalog products and coupons, fulfillment zones, methods and tax rates.
 * Each drops the cached copies on every replica (a broadcast, not a durable
 * consumer: a cache needs no inbox; the snapshot TTL bounds a missed one).
 */
export function onPricingDataChanged(transport: EventTransport, invalidate: (what: 'settings' | 'catalog' | 'quote') => void): () => void {
  const subscriptions = [
    transport.subscribe(transport.subjectFor(CustomerEvents.siteSettingsUpdated.subject), () => invalidate('settings')),
    transport.subscribe(transport.subjectFor(CatalogEvents.purchasablesChanged.subject), () => invalidate('catalog')),
    transport.subscribe(transport.subjectFor(CatalogEvents.couponChanged.subject), () => invalidate('catalog')),
    transport.subscribe(transport.subjectFor(FulfillmentEvents.quoteRulesChanged.subject), () => invalidate('quote')),
  ];
  return () => subscriptions.forEach((unsubscribe) => unsubscribe());
}
