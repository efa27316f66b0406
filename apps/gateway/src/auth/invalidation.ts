import type { EventTransport } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import type { PrincipalCache } from './principal-cache';

/**
 * Evicts cached principals as soon as the customers service reports a change
 * (every gateway replica hears every event: a plain subscription, not a
 * durable consumer). The cache TTL bounds staleness if an event is missed.
 */
export function subscribeCacheInvalidation(transport: EventTransport, cache: PrincipalCache): () => void {
  const subscriptions = [
    transport.subscribe(transport.subjectFor(CustomerEvents.sessionEnded.subject), (m) => {
      const event = CustomerEvents.sessionEnded.codec.decode(m.data);
      cache.delete(`s:${event.sessionId}`);
    }),
    ...[CustomerEvents.customerUpdated, CustomerEvents.customerDeleted, CustomerEvents.applicationPasswordRevoked].map(
      (event) =>
        transport.subscribe(transport.subjectFor(event.subject), (m) =>
          cache.evictUser((event.codec.decode(m.data) as { userId: number }).userId),
        ),
    ),
  ];
  return () => subscriptions.forEach((unsubscribe) => unsubscribe());
}
