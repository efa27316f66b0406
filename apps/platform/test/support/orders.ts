import { bindServices, openChannel, type CallerContext, type PromiseClient } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import type { Platform } from '../../src';

/** gRPC clients of the running orders service (the cart's and payments' view of it). */
export interface OrdersGrpc {
  checkout: PromiseClient<typeof orders.OrderCheckoutServiceService>;
  close(): void;
}

export function connectOrders(stack: Platform): OrdersGrpc {
  const service = stack.services.find((s) => s.name === 'orders');
  if (!service) throw new Error('the platform runs no orders service');
  const channel = openChannel('orders', service.address, 15_000);
  return { checkout: bindServices(channel, orders).orderCheckout, close: () => channel.close() };
}

export const systemCaller = (userId = 0, capabilities: string[] = []): CallerContext => ({
  userId,
  login: '',
  roles: [],
  capabilities,
  requestId: 'e2e',
});

let checkoutCounter = 0;

/** A checkout's CreateOrder request: one shipped line (2 x 10.00), 5.00 shipping, 2.50 tax. */
export function checkoutOrder(fields: Partial<orders.CreateOrderRequest> = {}): orders.CreateOrderRequest {
  checkoutCounter += 1;
  return orders.CreateOrderRequest.fromPartial({
    checkoutKey: `ck-${Date.now()}-${checkoutCounter}`,
    status: 'pending_payment',
    currency: 'USD',
    billing: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'US', state: 'CA' },
    shipping: { firstName: 'Ada', lastName: 'Lovelace', country: 'US', state: 'CA' },
    paymentMethod: 'bacs',
    paymentMethodTitle: 'Direct bank transfer',
    createdVia: 'checkout',
    reservationId: `res-${checkoutCounter}`,
    couponCodes: [],
    lineItems: [
      {
        productId: 11,
        priceId: 21,
        name: 'Mug',
        quantity: 2,
        price: '10.00',
        subtotal: '20.00',
        discount: '0.00',
        tax: '2.00',
        total: '20.00',
        shippingRequired: true,
      },
    ],
    shippingLines: [{ methodId: 'flat_rate', instanceId: 1, rateId: 'flat_rate:1', label: 'Flat rate', total: '5.00', totalTax: '0.50' }],
    taxLines: [{ rateId: 1, label: 'Tax', rate: '10.0000', taxTotal: '2.00', shippingTaxTotal: '0.50' }],
    subtotal: '20.00',
    discountTotal: '0.00',
    shippingTotal: '5.00',
    totalTax: '2.50',
    total: '27.50',
    ...fields,
  });
}
