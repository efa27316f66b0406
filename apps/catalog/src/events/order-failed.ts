import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/**
 * orders.order_failed -> release the order's reservation if it still holds
 * units (restock if it had been committed, capped by the event's lines) and
 * release its coupon redemptions. Idempotent like order_cancelled.
 */
export function onOrderFailed(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderFailed> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines, 'order_failed');
    const couponsReleased = await domain.redemptions.releaseForOrder(em, { orderId, reservationId });
    logger.info({ orderId, reservationId, outcome, couponsReleased, eventId: envelope.id }, 'order_failed handled');
  };
}
