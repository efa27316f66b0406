import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CartDomain } from '../domain';
import { onOrderPaid } from '../domain/checkout/action-completed';

/** orders.order_paid -> a checkout that waited on an action step is complete: empty its cart (once). */
export function orderPaidConsumer(domain: CartDomain, logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const cleared = await onOrderPaid(domain.deps, em, envelope.payload.orderId);
    if (cleared) logger.info({ orderId: envelope.payload.orderId, eventId: envelope.id }, 'cart emptied after the action step');
  };
}
