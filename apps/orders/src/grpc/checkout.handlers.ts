import type { orders } from '@storefront/proto/orders';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { OrdersDomain } from '../domain';
import { actorOf, fromProtoAddress, toProtoOrder } from './mappers';

export function checkoutHandlers(domain: OrdersDomain): ServiceHandlers<typeof orders.OrderCheckoutServiceService> {
  return {
    async createOrder(req, caller) {
      const { order, existing } = await domain.orders.createFromCheckout(
        { ...req, billing: fromProtoAddress(req.billing), shipping: fromProtoAddress(req.shipping) },
        actorOf(caller),
      );
      return { order: toProtoOrder(order), existing };
    },
    async recordPaymentResult(req, caller) {
      const order = await domain.orders.recordPaymentResult(req.orderId, req.outcome, req, actorOf(caller));
      return { order: toProtoOrder(order) };
    },
    async getOrderForPayment(req, caller) {
      return { order: toProtoOrder(await domain.orders.getForPayment(req.orderId, req.orderKey, actorOf(caller))) };
    },
  };
}
