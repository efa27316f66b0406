import { CustomerEvents } from '@storefront/domain-events';
import type { EventTransport } from '@storefront/events';

/**
 * customers.site_settings_updated -> drop the cached store settings on every
 * replica (a broadcast, not a durable consumer: a cache needs no inbox).
 */
export function onSiteSettingsUpdated(transport: EventTransport, invalidate: () => void): () => void {
  const event = CustomerEvents.siteSettingsUpdated;
  return transport.subscribe(transport.subjectFor(event.subject), () => invalidate());
}
