import { defineEvent } from '@storefront/events';
import { orders } from '@storefront/proto/orders';

/** Events of the orders service (proto/shop/orders/v1/events.proto). */
export const OrderEvents = {
  orderPlaced: defineEvent('orders', 'order_placed', orders.OrderPlaced),
  orderPaid: defineEvent('orders', 'order_paid', orders.OrderPaid),
  orderFailed: defineEvent('orders', 'order_failed', orders.OrderFailed),
  orderCancelled: defineEvent('orders', 'order_cancelled', orders.OrderCancelled),
  orderRefunded: defineEvent('orders', 'order_refunded', orders.OrderRefunded),
  orderStatusChanged: defineEvent('orders', 'order_status_changed', orders.OrderStatusChanged),
  orderDeleted: defineEvent('orders', 'order_deleted', orders.OrderDeleted),
};
