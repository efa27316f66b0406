import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/** orders.order_cancelled -> give the order's reserved units back to stock (exactly once). */
export function onOrderCancelled(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderCancelled> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines);
    logger.info({ orderId, reservationId, outcome, eventId: envelope.id }, 'order_cancelled handled');
  };
}
