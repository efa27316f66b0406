import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { paymentsService } from '../src/service';
import { connect, customer, guest, rejection, VISA, type PaymentsTestClients } from './support/grpc';

let service: TestService;
let grpc: PaymentsTestClients;

// Without the card addon there is no test_card gateway at all.
beforeAll(async () => {
  service = await startTestService(paymentsService, { env: { SHOP_ADDONS: 'subscriptions,embed' } });
  grpc = connect(service);
}, 60_000);
afterAll(async () => {
  grpc?.channel.close();
  await service?.stop();
}, 60_000);

describe('card addon inactive', () => {
  it('registers only the offline gateways; nothing supports tokenization', async () => {
    const { gateways } = await grpc.payments.listAvailableGateways({ amount: '5.00', currency: 'USD', hasSubscription: false, customerId: 0, shippingMethod: '' }, guest());
    expect(gateways.map((g) => g.id)).toEqual(['cod', 'bacs']);
    expect(await grpc.gateways.getTokenizationStatus({}, guest())).toEqual({ available: false, gatewayIds: [] });
  });

  it('setup intents answer shop_payment_methods_gateway_inactive; adding a card is unsupported', async () => {
    const inactive = await rejection(grpc.methods.createSetupIntent({ paymentMethod: 'test_card', returnUrl: '' }, customer(7)));
    expect([inactive.code, inactive.status]).toEqual(['shop_payment_methods_gateway_inactive', 422]);
    const unsupported = await rejection(
      grpc.methods.addPaymentMethod(
        { paymentMethod: 'test_card', paymentPayloadJson: JSON.stringify(VISA), fieldsJson: '{}', idempotencyKey: '', clientIp: '' },
        customer(7),
      ),
    );
    expect([unsupported.code, unsupported.status]).toEqual(['shop_payment_methods_unsupported', 422]);
    const invalid = await rejection(
      grpc.payments.processPayment(
        { orderId: 1, orderKey: '', gatewayId: 'test_card', amount: '5.00', currency: 'USD', customerId: 0, paymentPayloadJson: '', idempotencyKey: '', clientIp: '', returnUrl: '', hasSubscription: false, savePaymentMethod: false, settleByKey: false },
        guest(),
      ),
    );
    expect(invalid.code).toBe('shop_checkout_invalid_gateway');
    const schema = JSON.parse((await grpc.gateways.getSettingsSchema({}, guest())).schemaJson);
    expect(Object.keys(schema.properties)).toEqual(['cod', 'bacs']);
  });
});
