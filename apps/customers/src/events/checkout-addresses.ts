import type { EventHandler, EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import { fromProtoFields } from '@storefront/grpc-client';
import type { CustomersDomain } from '../domain';
import { ADDRESS_FIELDS, type AddressFields } from '../persistence/entities';

/** The order's address as the customer record stores it (`address_1`, ...). */
const addressFields = (a: orders.OrderAddress | undefined): Partial<AddressFields> | undefined =>
  a ? fromProtoFields<(typeof ADDRESS_FIELDS)[number], string>(ADDRESS_FIELDS, a) : undefined;

/** orders.order_placed of a customer's storefront checkout -> the addresses it was placed with become the customer's. */
export function onCheckoutPlaced(domain: CustomersDomain, logger: Logger): EventHandler<orders.OrderPlaced> {
  return async ({ id, payload }, em) => {
    const changed = await domain.profile.rememberCheckoutAddresses(em, payload.customerId, {
      billing: addressFields(payload.billing),
      shipping: addressFields(payload.shipping),
    });
    logger.debug({ orderId: payload.orderId, eventId: id, changed }, 'checkout addresses remembered');
  };
}

/** A guest's order, or one an admin created, changes no customer record (no inbox transaction). */
export const checkoutPlacedShortcut: EventShortcut<orders.OrderPlaced> = async ({ payload }) =>
  payload.customerId <= 0 || payload.createdVia !== 'checkout';
