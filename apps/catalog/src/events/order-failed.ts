import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

type ReleasedOrder = Pick<orders.OrderFailed, 'orderId' | 'reservationId' | 'lines'>;

/**
 * Releases what an order held: its reservation if it still holds units
 * (restocked if it had been committed, capped by the event's lines) and its
 * coupon redemptions. Idempotent like order_cancelled.
 */
function releaseOrder<T extends ReleasedOrder>(domain: CatalogDomain, logger: Logger, reason: 'order_failed' | 'order_deleted'): EventHandler<T> {
  return async (envelope, em) => {
    const { orderId, reservationId, lines } = envelope.payload;
    const outcome = await domain.reservations.restockCancelledOrder(em, reservationId, lines, reason, envelope.occurredAt);
    const couponsReleased = await domain.redemptions.releaseForOrder(em, { orderId, reservationId, madeBefore: envelope.occurredAt });
    logger.info({ orderId, reservationId, outcome, couponsReleased, eventId: envelope.id }, `${reason} handled`);
  };
}

/** orders.order_failed -> release what the order held. */
export function onOrderFailed(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderFailed> {
  return releaseOrder(domain, logger, 'order_failed');
}

/**
 * orders.order_deleted of an unpaid order that still held something (not
 * already failed or cancelled) -> the same release as order_failed. A paid
 * order's stock stays taken (its goods may have shipped).
 */
export function onOrderDeleted(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderDeleted> {
  return releaseOrder(domain, logger, 'order_deleted');
}

/** A deleted order that was paid, or already failed or cancelled, gives nothing back here. */
export const orderDeletedShortcut: EventShortcut<orders.OrderDeleted> = async ({ payload }) =>
  payload.paidStatus !== 'unpaid' || payload.status === 'failed' || payload.status === 'cancelled';
