import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { CatalogDomain } from '../domain';

/**
 * orders.order_placed -> the coupon redemptions made with the order's
 * reservation (the saga redeems before the order exists) now name the order,
 * so order_failed / order_cancelled and ReleaseCoupons(order_id) find them.
 */
export function onOrderPlaced(domain: CatalogDomain, logger: Logger): EventHandler<orders.OrderPlaced> {
  return async (envelope, em) => {
    const { orderId, reservationId } = envelope.payload;
    const linked = await domain.redemptions.attachOrder(em, reservationId, orderId);
    if (linked) logger.info({ orderId, reservationId, linked, eventId: envelope.id }, 'order_placed: redemptions linked');
  };
}

/**
 * An order placed without coupons has no redemptions to link (the saga
 * redeems exactly the order's codes): nothing to do, whatever is redelivered.
 */
export const orderPlacedShortcut: EventShortcut<orders.OrderPlaced> = async (envelope) =>
  !envelope.payload.couponCodes.length || !envelope.payload.reservationId;
