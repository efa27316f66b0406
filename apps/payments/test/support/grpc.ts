import { expect } from '@jest/globals';
import { anonymousCaller, bindServices, openChannel, type CallerContext, type Channel } from '@storefront/grpc-client';
import { DomainError } from '@storefront/errors';
import { payments } from '@storefront/proto/payments';
import type { RunningService } from '@storefront/service-kit';

export const admin: CallerContext = {
  ...anonymousCaller('test'),
  userId: 1,
  login: 'admin',
  roles: ['administrator'],
  capabilities: ['manage_options'],
};
export const customer = (userId: number, clientIp = '10.0.0.1'): CallerContext => ({
  ...anonymousCaller('test', clientIp),
  userId,
  login: `customer${userId}`,
  roles: ['shop_customer'],
  capabilities: ['read'],
});
export const guest = (clientIp = '10.0.0.1'): CallerContext => anonymousCaller('test', clientIp);

export function connect(service: RunningService) {
  const channel: Channel = openChannel('payments', service.address);
  // Every payments service bound by bindServices, under the names these tests use.
  const { payment, paymentGateway, paymentMethod, testCard } = bindServices(channel, payments);
  return { channel, payments: payment, gateways: paymentGateway, methods: paymentMethod, testCard };
}
export type PaymentsTestClients = ReturnType<typeof connect>;

/** The DomainError a call failed with. */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

export const VISA = { card_number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' };
export const DECLINED = { ...VISA, card_number: '4000000000000002' };
export const ACTION = { ...VISA, card_number: '4000000000003220' };

export function paymentRequest(overrides: Partial<payments.ProcessPaymentRequest> = {}): payments.ProcessPaymentRequest {
  return payments.ProcessPaymentRequest.fromPartial({
    orderId: 1,
    orderKey: 'wc_order_key',
    gatewayId: 'test_card',
    amount: '19.99',
    currency: 'USD',
    customerId: 0,
    paymentPayloadJson: JSON.stringify(VISA),
    clientIp: '10.0.0.1',
    ...overrides,
  });
}
