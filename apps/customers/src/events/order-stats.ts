import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import { OrderStats } from '../domain/order-stats';

/** orders.order_paid -> the customer's total_orders / total_spent grow (exactly once). */
export function onOrderPaid(logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const { orderId, customerId, total } = envelope.payload;
    await OrderStats.paid(em, customerId, total);
    logger.debug({ orderId, eventId: envelope.id }, 'order_paid counted');
  };
}

/**
 * A guest's order (customer 0) counts nowhere (OrderStats): its order_paid
 * needs nothing, whatever is redelivered, so it skips the inbox transaction.
 */
export const orderPaidShortcut: EventShortcut<orders.OrderPaid> = async (envelope) => !OrderStats.counts(envelope.payload.customerId);

/** orders.order_cancelled of a paid order -> take it back from the stats. */
export function onOrderCancelled(logger: Logger): EventHandler<orders.OrderCancelled> {
  return async (envelope, em) => {
    const { orderId, customerId, wasPaid, total } = envelope.payload;
    await OrderStats.cancelled(em, customerId, wasPaid, total);
    logger.debug({ orderId, eventId: envelope.id }, 'order_cancelled counted');
  };
}

/** orders.order_refunded -> take the refunded amount (and a fully refunded order) back. */
export function onOrderRefunded(logger: Logger): EventHandler<orders.OrderRefunded> {
  return async (envelope, em) => {
    const { orderId, customerId, full, amount } = envelope.payload;
    await OrderStats.refunded(em, customerId, full, amount);
    logger.debug({ orderId, eventId: envelope.id }, 'order_refunded counted');
  };
}

/** orders.order_deleted of an order that still counted -> it leaves the stats. */
export function onOrderDeleted(logger: Logger): EventHandler<orders.OrderDeleted> {
  return async (envelope, em) => {
    const { orderId, customerId, counted, countedAmount } = envelope.payload;
    await OrderStats.deleted(em, customerId, counted, countedAmount);
    logger.debug({ orderId, eventId: envelope.id }, 'order_deleted counted');
  };
}

/** A guest's order, or one that no longer counted, needs nothing (no inbox transaction). */
export const orderDeletedShortcut: EventShortcut<orders.OrderDeleted> = async ({ payload }) =>
  !OrderStats.counts(payload.customerId) || !payload.counted;
