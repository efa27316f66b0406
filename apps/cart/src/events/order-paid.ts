import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CartDomain } from '../domain';
import { nothingWaitsOnOrder, onOrderFailed, onOrderPaid } from '../domain/checkout/action-completed';

/** orders.order_paid -> a checkout that waited on an action step is complete: empty its cart (once). */
export function orderPaidConsumer(domain: CartDomain, logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const cleared = await onOrderPaid(domain.deps, em, envelope.payload.orderId);
    if (cleared) logger.info({ orderId: envelope.payload.orderId, eventId: envelope.id }, 'cart emptied after the action step');
  };
}

/** A paid order no checkout waits on (no action step) needs one statement and no transaction. */
export function orderPaidShortcut(domain: CartDomain): EventShortcut<orders.OrderPaid> {
  return (envelope, consumer) => nothingWaitsOnOrder(domain.deps, envelope.payload.orderId, { consumer, eventId: envelope.id });
}

/** orders.order_failed -> a checkout that waited on an action step fails; its cart takes a new revision (once). */
export function orderFailedConsumer(domain: CartDomain, logger: Logger): EventHandler<orders.OrderFailed> {
  return async (envelope, em) => {
    const bumped = await onOrderFailed(domain.deps, em, envelope.payload.orderId, envelope.payload.reason);
    if (bumped) logger.info({ orderId: envelope.payload.orderId, eventId: envelope.id }, 'action-step checkout failed; its cart is a new attempt');
  };
}

/** A failed order no checkout waits on (the usual decline, answered at once) needs one statement and no transaction. */
export function orderFailedShortcut(domain: CartDomain): EventShortcut<orders.OrderFailed> {
  return (envelope, consumer) => nothingWaitsOnOrder(domain.deps, envelope.payload.orderId, { consumer, eventId: envelope.id });
}
