import type { EventHandler, EventShortcut } from '@storefront/events';
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

/**
 * Most paid orders need one statement here: no coupons to link, and the
 * reservation is active (a checkout leaves a paid order's reservation to this
 * consumer) or committed already. Those skip the inbox transaction; the
 * committing statement records the event in the inbox itself.
 */
export function orderPaidShortcut(domain: CatalogDomain): EventShortcut<orders.OrderPaid> {
  return async (envelope, consumer) => {
    const { reservationId, couponCodes } = envelope.payload;
    if (couponCodes.length) return false;
    if (!reservationId) return true;
    return domain.reservations.commitForPaidEvent(reservationId, { consumer, eventId: envelope.id });
  };
}
