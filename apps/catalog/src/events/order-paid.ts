import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/**
 * orders.order_paid -> commit the order's stock reservation (once; an expired
 * or released one takes its units again, the sale happened) and link the
 * checkout's coupon redemptions to the order id.
 */
export function onOrderPaid(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const { orderId, reservationId } = envelope.payload;
    const outcome = await domain.reservations.commitPaidOrder(em, reservationId);
    const linked = await domain.redemptions.attachOrder(em, reservationId, orderId);
    logger.info({ orderId, reservationId, outcome, linked, eventId: envelope.id }, 'order_paid handled');
  };
}
