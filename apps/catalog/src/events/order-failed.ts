import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/**
 * orders.order_failed -> release the order's reservation if it still holds
 * units (restock if it had been committed, capped by the event's lines) and
 * release its coupon redemptions. Idempotent like order_cancelled.
 */
/**
 * orders.order_deleted of an unpaid order that still held something (not
 * already failed or cancelled) -> the same release as order_failed. A paid
 * order's stock stays taken (its goods may have shipped).
 */
export function onOrderDeleted(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderDeleted> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines, 'order_deleted');
    const couponsReleased = await domain.redemptions.releaseForOrder(em, { orderId, reservationId });
    logger.info({ orderId, reservationId, outcome, couponsReleased, eventId: envelope.id }, 'order_deleted handled');
  };
}

/** A deleted order that was paid, or already failed or cancelled, gives nothing back here. */
export const orderDeletedShortcut: EventShortcut<orders.OrderDeleted> = async ({ payload }) =>
  payload.paidStatus !== 'unpaid' || payload.status === 'failed' || payload.status === 'cancelled';

export function onOrderFailed(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderFailed> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines, 'order_failed');
    const couponsReleased = await domain.redemptions.releaseForOrder(em, { orderId, reservationId });
    logger.info({ orderId, reservationId, outcome, couponsReleased, eventId: envelope.id }, 'order_failed handled');
  };
}
