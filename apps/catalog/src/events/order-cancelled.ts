import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/**
 * orders.order_cancelled -> give the order's reserved units back to stock and
 * release its coupon redemptions (exactly once: the inbox drops redeliveries,
 * the reservation and redemption statuses guard against a second event).
 */
export function onOrderCancelled(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderCancelled> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines, 'order_cancelled', envelope.occurredAt);
    const couponsReleased = await domain.redemptions.releaseForOrder(em, { orderId, reservationId, madeBefore: envelope.occurredAt });
    logger.info({ orderId, reservationId, outcome, couponsReleased, eventId: envelope.id }, 'order_cancelled handled');
  };
}
