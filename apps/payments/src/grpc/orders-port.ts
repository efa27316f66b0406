import { bindClient, type CallerContext, type Channel } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import type { OrderForPayment, OrdersPort } from '../domain';

function toOrder(order: orders.Order | undefined): OrderForPayment {
  const o = order ?? orders.Order.fromPartial({});
  return {
    id: o.id,
    status: o.status,
    paidStatus: o.paidStatus,
    orderKey: o.orderKey,
    currency: o.currency,
    customerId: o.customerId,
    paymentMethod: o.paymentMethod,
    paymentMethodTitle: o.paymentMethodTitle,
    transactionId: o.transactionId,
    total: o.total,
  };
}

/** The orders service's OrderCheckoutService behind the domain's OrdersPort. */
export function ordersPort(channel: Channel): OrdersPort {
  const client = bindClient(channel, orders.OrderCheckoutServiceService);
  return {
    async recordPaymentResult(input, caller: CallerContext) {
      // Payments reports a gateway outcome on its own authority; the request id ties the logs together.
      const service: CallerContext = { userId: 0, login: '', roles: [], capabilities: [], requestId: caller.requestId || 'payments' };
      const { order } = await client.recordPaymentResult(input, service);
      return toOrder(order);
    },
    async getOrderForPayment(orderId, orderKey, caller) {
      const { order } = await client.getOrderForPayment({ orderId, orderKey }, caller);
      return toOrder(order);
    },
  };
}
