import { bindClient, type Channel } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import type { Address, OrdersPort, OrderView } from '../../domain/ports';
import { callerOf } from './service-caller';

function address(a: Address): orders.OrderAddress {
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    address1: a.address_1,
    address2: a.address_2,
    city: a.city,
    state: a.state,
    postcode: a.postcode,
    country: a.country,
    email: a.email,
    phone: a.phone,
  };
}

function view(o: orders.Order | undefined): OrderView {
  if (!o) throw new Error('orders answered without an order');
  return {
    id: o.id,
    status: o.status,
    paidStatus: o.paidStatus,
    orderKey: o.orderKey,
    currency: o.currency,
    customerId: o.customerId,
    total: o.total,
    paymentMethod: o.paymentMethod,
    needsPayment: o.needsPayment,
    reservationId: o.reservationId,
    couponCodes: o.couponLines.map((l) => l.code),
    hasSubscription: o.lineItems.some((l) => !!l.subscription),
    billingEmail: o.billing?.email ?? '',
  };
}

/** Orders over gRPC (OrderCheckoutService of the buying-path contract). */
export function ordersPort(channel: Channel): OrdersPort {
  const client = bindClient(channel, orders.OrderCheckoutServiceService);
  return {
    async createOrder(order, actor) {
      const { order: created } = await client.createOrder(
        orders.CreateOrderRequest.fromPartial({
          checkoutKey: order.checkoutKey,
          draftOrderId: order.draftOrderId,
          status: order.status,
          customerId: order.customerId,
          currency: order.currency,
          billing: address(order.billing),
          shipping: address(order.shipping),
          customerNote: order.customerNote,
          paymentMethod: order.paymentMethod,
          paymentMethodTitle: order.paymentMethodTitle,
          createdVia: 'checkout',
          reservationId: order.reservationId,
          couponCodes: order.couponCodes,
          lineItems: order.lineItems.map((l) => ({ ...l, metaJson: '' })),
          shippingLines: order.shippingLines,
          couponLines: order.couponLines,
          taxLines: order.taxLines,
          subtotal: order.subtotal,
          discountTotal: order.discountTotal,
          shippingTotal: order.shippingTotal,
          totalTax: order.totalTax,
          total: order.total,
        }),
        callerOf(actor),
      );
      return view(created);
    },
    async recordPaymentResult(input, actor) {
      const { order } = await client.recordPaymentResult(input, callerOf(actor));
      return view(order);
    },
    async getOrderForPayment(orderId, orderKey, actor) {
      const { order } = await client.getOrderForPayment({ orderId, orderKey }, callerOf(actor));
      return view(order);
    },
  };
}
