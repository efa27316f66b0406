import { defineEvent } from '@storefront/events';
import { orders } from '@storefront/proto';

/** Events of the orders service (proto/shop/orders/v1/events.proto). */
export const OrderEvents = {
  orderCancelled: defineEvent('orders', 'order_cancelled', orders.OrderCancelled),
};
