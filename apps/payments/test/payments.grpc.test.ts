import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startService } from '@storefront/service-kit';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { createTestEvents, silentLogger, statementsSent, waitFor, type TestEvents } from '@storefront/testing';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { activityLogged } from '@storefront/domain-events';
import { payments } from '@storefront/proto/payments';
import { paymentsService } from '../src/service';
import { ACTION, admin, connect, customer, DECLINED, guest, paymentRequest, rejection, VISA, type PaymentsTestClients } from './support/grpc';

let service: TestService;
let grpc: PaymentsTestClients;
let events: TestEvents;
let listener: EventTransport;
const activity: string[] = [];

beforeAll(async () => {
  events = createTestEvents();
  service = await startTestService(paymentsService, { env: { PAYMENT_FAILURE_LIMIT: '3', INTENT_SWEEP_SECONDS: '0' }, events });
  grpc = connect(service);
  // What payments publishes to the activity log, as a consumer on the test's stream sees it.
  listener = await connectJetStream({
    url: events.env.NATS_URL,
    stream: events.env.EVENTS_STREAM,
    subjectPrefix: events.env.EVENTS_SUBJECT_PREFIX,
    name: 'payments-activity-test',
    logger: silentLogger(),
  });
  const event = activityLogged('payments');
  await listener.consume('payments_activity_test', listener.subjectFor(event.subject), async (m) => {
    activity.push(JSON.stringify(event.codec.decode(m.data)));
  });
}, 60_000);
afterAll(async () => {
  grpc?.channel.close();
  await listener?.close().catch(() => undefined);
  await service?.stop();
  await events?.cleanup();
}, 60_000);

const count = async (sql: string, params: unknown[] = []) =>
  Number((await service.db.em().execute<{ n: string }[]>(sql, params))[0].n);

describe('ListAvailableGateways', () => {
  it('lists enabled gateways by index; subscriptions exclude gateways without support; disabled ones disappear', async () => {
    const all = await grpc.payments.listAvailableGateways({ amount: '10.00', currency: 'USD', hasSubscription: false, customerId: 0, shippingMethod: '' }, guest());
    expect(all.gateways.map((g) => g.id)).toEqual(['cod', 'bacs', 'test_card']);
    expect(all.gateways[2]).toMatchObject({ supportsIntents: true, hasFields: true, publishableKey: 'pk_test_storefront' });
    expect(all.gateways[0]).toMatchObject({ supportsIntents: false, supports: ['products'] });
    const subs = await grpc.payments.listAvailableGateways({ amount: '10.00', currency: 'USD', hasSubscription: true, customerId: 0, shippingMethod: '' }, guest());
    expect(subs.gateways.map((g) => g.id)).toEqual(['test_card']);
    await grpc.gateways.updateSettings({ configJson: JSON.stringify({ cod: { is_enabled: false }, bacs: { index: 9 } }), replace: false }, admin);
    const after = await grpc.payments.listAvailableGateways({ amount: '', currency: '', hasSubscription: false, customerId: 0, shippingMethod: '' }, guest());
    expect(after.gateways.map((g) => g.id)).toEqual(['test_card', 'bacs']);
    await grpc.gateways.updateSettings({ configJson: JSON.stringify({ cod: {}, bacs: {} }), replace: true }, admin);
    const err = await rejection(grpc.payments.listAvailableGateways({ amount: 'lots', currency: 'USD', hasSubscription: false, customerId: 0, shippingMethod: '' }, guest()));
    expect([err.code, err.status]).toEqual(['rest_invalid_param', 400]);
  });

  it("cash on delivery limited to some shipping methods (enable_for_methods) is offered only for them, or when nothing ships", async () => {
    const ids = async (shippingMethod: string) =>
      (await grpc.payments.listAvailableGateways({ amount: '10.00', currency: 'USD', hasSubscription: false, customerId: 0, shippingMethod }, guest())).gateways.map((g) => g.id);
    await grpc.gateways.updateSettings({ configJson: JSON.stringify({ cod: { enable_for_methods: ['local_pickup', 'free_shipping'] } }), replace: false }, admin);
    try {
      expect(await ids('flat_rate:1')).not.toContain('cod');
      expect(await ids('local_pickup:3')).toContain('cod');
      expect(await ids('free_shipping:7')).toContain('cod');
      expect(await ids('')).toContain('cod');
    } finally {
      await grpc.gateways.updateSettings({ configJson: JSON.stringify({ cod: { enable_for_methods: [] } }), replace: false }, admin);
    }
    expect(await ids('flat_rate:1')).toContain('cod');
  });

  it('records an activity-log event (gateway ids and field names only) with each settings change', async () => {
    await grpc.gateways.updateSettings({ configJson: JSON.stringify({ test_card: { secret_key: 'sk_test_hidden' } }), replace: false }, admin);
    // Published through the outbox (the relay deletes the row once NATS has it): read it from the stream.
    const entry = await waitFor(() => activity.find((a) => a.includes('test_card')), 20_000);
    expect(entry).toContain('secret_key');
    expect(entry).not.toContain('sk_test_hidden');
  });
});

describe('ProcessPayment', () => {
  it('cod -> paid, bacs -> on_hold, attempts recorded in minor units', async () => {
    const cod = await grpc.payments.processPayment(paymentRequest({ orderId: 101, gatewayId: 'cod', paymentPayloadJson: '' }), guest());
    expect(cod).toMatchObject({ outcome: 'paid', gatewayTitle: 'Cash on delivery' });
    const bacs = await grpc.payments.processPayment(paymentRequest({ orderId: 102, gatewayId: 'bacs', amount: '1234.5' }), guest());
    expect(bacs).toMatchObject({ outcome: 'on_hold', transactionId: '' });
    const rows = await service.db.em().execute<{ amount_minor: string; currency: string; outcome: string }[]>(
      `select "amount_minor", "currency", "outcome" from "payments"."payment_attempts" where "order_id" = 102`,
    );
    expect(rows).toEqual([{ amount_minor: '123450', currency: 'USD', outcome: 'on_hold' }]);
  });

  it('an offline gateway settles in the process: its attempt is one statement, written with the outcome', async () => {
    const request = paymentRequest({ orderId: 150, gatewayId: 'cod', paymentPayloadJson: '', idempotencyKey: 'offline-150' });
    let first: payments.ProcessPaymentResponse | undefined;
    const sent = await statementsSent(/payment_attempts/, async () => {
      first = await grpc.payments.processPayment(request, guest());
    });
    expect(sent.map((s) => s.text.trim().split(/\s+/)[0])).toEqual(['with']);
    const rows = await service.db.em().execute<{ outcome: string; transaction_id: string; message: string }[]>(
      `select "outcome", "transaction_id", "message" from "payments"."payment_attempts" where "order_id" = 150`,
    );
    expect(rows).toEqual([{ outcome: 'paid', transaction_id: first!.transactionId, message: 'Pay with cash upon delivery.' }]);
    // A retry replays that attempt: the same transaction, no second row.
    const again = await grpc.payments.processPayment(request, guest());
    expect(again).toMatchObject({ replayed: true, transactionId: first!.transactionId });
    expect(await count(`select count(*) as n from "payments"."payment_attempts" where "order_id" = 150`)).toBe(1);
  });

  it('a zero-decimal currency is kept in its own minor units', async () => {
    await grpc.payments.processPayment(paymentRequest({ orderId: 103, gatewayId: 'cod', amount: '1500', currency: 'jpy' }), guest());
    expect(await count(`select "amount_minor" as n from "payments"."payment_attempts" where "order_id" = 103`)).toBe(1500);
    const err = await rejection(grpc.payments.processPayment(paymentRequest({ orderId: 104, gatewayId: 'cod', amount: '15.5', currency: 'JPY' }), guest()));
    expect(err.code).toBe('rest_invalid_param');
  });

  it('concurrent retries with one idempotency key charge once', async () => {
    const request = paymentRequest({ orderId: 105, idempotencyKey: 'concurrent-105' });
    const results = await Promise.all(Array.from({ length: 6 }, () => grpc.payments.processPayment(request, guest())));
    expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await count(`select count(*) as n from "payments"."payment_attempts" where "order_id" = 105`)).toBe(1);
  });

  it('saves the card as a token (brand, last 4, expiry) when asked by a signed-in customer', async () => {
    const res = await grpc.payments.processPayment(paymentRequest({ orderId: 106, customerId: 42, savePaymentMethod: true }), customer(42));
    expect(res.outcome).toBe('paid');
    const { tokens } = await grpc.methods.listPaymentMethods({}, customer(42));
    expect(tokens).toEqual([expect.objectContaining({ gateway: 'test_card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, isDefault: true })]);
    // Paying with the token; someone else's token is 404.
    const again = await grpc.payments.processPayment(
      paymentRequest({ orderId: 107, customerId: 42, paymentPayloadJson: JSON.stringify({ token_id: tokens[0].id }) }),
      customer(42),
    );
    expect(again.outcome).toBe('paid');
    const foreign = await rejection(
      grpc.payments.processPayment(paymentRequest({ orderId: 108, customerId: 43, paymentPayloadJson: JSON.stringify({ token_id: tokens[0].id }) }), customer(43)),
    );
    expect([foreign.code, foreign.status]).toEqual(['shop_payment_methods_invalid_token', 404]);
  });

  it('the card-testing limit counts declines per IP in Postgres, across replicas', async () => {
    // A second replica of the service on the same database.
    const replica = await startService(paymentsService, { env: { ...service.env }, logger: silentLogger() });
    const other = connect(replica);
    try {
      const ip = '10.9.9.9';
      const declined = (client: PaymentsTestClients, orderId: number) =>
        client.payments.processPayment(paymentRequest({ orderId, clientIp: ip, paymentPayloadJson: JSON.stringify(DECLINED) }), guest(ip));
      expect((await declined(grpc, 201)).outcome).toBe('declined');
      expect((await declined(other, 202)).outcome).toBe('declined');
      expect((await declined(grpc, 203)).outcome).toBe('declined');
      const limited = await rejection(declined(other, 204));
      expect([limited.code, limited.status]).toEqual(['shop_rate_limited', 429]);
      expect(limited.data.retry_after).toBeGreaterThan(0);
      const fine = await grpc.payments.processPayment(paymentRequest({ orderId: 205, clientIp: '10.9.9.10' }), guest('10.9.9.10'));
      expect(fine.outcome).toBe('paid');
    } finally {
      other.channel.close();
      await replica.stop();
    }
  });
});

describe('CreateIntent and Refund', () => {
  it('offline gateways have no intents and no refunds; test_card has both', async () => {
    const intentless = await rejection(
      grpc.payments.createIntent(payments.CreateIntentRequest.fromPartial({ gatewayId: 'bacs', orderId: 1, amount: '5.00', currency: 'USD' }), guest()),
    );
    expect([intentless.code, intentless.status]).toEqual(['shop_checkout_intent_unsupported', 422]);
    const intent = await grpc.payments.createIntent(
      payments.CreateIntentRequest.fromPartial({ gatewayId: 'test_card', orderId: 1, amount: '5.00', currency: 'USD' }),
      guest(),
    );
    expect(intent).toMatchObject({ intentId: expect.stringMatching(/^pi_/), clientSecret: expect.stringContaining('_secret_'), requiresAction: false });
    const setup = await grpc.payments.createIntent(payments.CreateIntentRequest.fromPartial({ gatewayId: 'test_card', setup: true, customerId: 5 }), customer(5));
    expect(setup.intentId).toMatch(/^seti_/);
    const unknown = await rejection(grpc.payments.createIntent(payments.CreateIntentRequest.fromPartial({ gatewayId: 'nope' }), guest()));
    expect(unknown.code).toBe('shop_checkout_invalid_gateway');

    // Cash goes back by hand: the refund is recorded (nothing to call), replayed by its key.
    const byHand = { orderId: 101, gatewayId: 'cod', transactionId: 'x', amount: '1.00', currency: 'USD', reason: 'returned', idempotencyKey: 'cod-101' };
    const manual = await grpc.payments.refund(byHand, admin);
    expect(manual.refundId).toMatch(/^manual_re_/);
    expect((await grpc.payments.refund(byHand, admin)).refundId).toBe(manual.refundId);
    // A gateway no longer installed (its addon turned off) refunds nothing either: the same refusal, not a checkout error.
    const gone = await rejection(
      grpc.payments.refund({ orderId: 102, gatewayId: 'retired_gateway', transactionId: 'x', amount: '1.00', currency: 'USD', reason: '', idempotencyKey: '' }, admin),
    );
    expect([gone.code, gone.status]).toEqual(['shop_order_refund_unsupported', 422]);
    const paid = await grpc.payments.processPayment(paymentRequest({ orderId: 301 }), guest('10.1.1.1'));
    const refund = await grpc.payments.refund(
      { orderId: 301, gatewayId: 'test_card', transactionId: paid.transactionId, amount: '5.00', currency: 'USD', reason: 'damaged', idempotencyKey: '' },
      admin,
    );
    expect(refund.refundId).toMatch(/^re_/);
    expect(await count(`select count(*) as n from "payments"."refunds" where "order_id" = 301`)).toBe(1);
  });

  it('a keyed refund is made once: a retry and concurrent twins answer the first refund; the key with another amount is 422', async () => {
    const paid = await grpc.payments.processPayment(paymentRequest({ orderId: 302 }), guest('10.1.1.2'));
    const request = { orderId: 302, gatewayId: 'test_card', transactionId: paid.transactionId, amount: '5.00', currency: 'USD', reason: 'late', idempotencyKey: 'order-302-late' };
    const twins = await Promise.all([1, 2, 3].map(() => grpc.payments.refund(request, admin)));
    const first = twins[0].refundId;
    expect(first).toMatch(/^re_/);
    expect(twins.map((t) => t.refundId)).toEqual([first, first, first]);
    expect((await grpc.payments.refund(request, admin)).refundId).toBe(first);
    expect(await count(`select count(*) as n from "payments"."refunds" where "order_id" = 302`)).toBe(1);

    const reused = await rejection(grpc.payments.refund({ ...request, amount: '4.00' }, admin));
    expect([reused.code, reused.status]).toEqual(['shop_idempotency_key_reused', 422]);
    const tooLong = await rejection(grpc.payments.refund({ ...request, idempotencyKey: 'k'.repeat(256) }, admin));
    expect([tooLong.code, tooLong.status]).toEqual(['rest_invalid_param', 400]);
    // Another key is another refund (a second partial refund of the same payment).
    expect((await grpc.payments.refund({ ...request, amount: '1.00', idempotencyKey: 'order-302-partial' }, admin)).refundId).not.toBe(first);
    expect(await count(`select count(*) as n from "payments"."refunds" where "order_id" = 302`)).toBe(2);
  });

  it('a keyed retry of a refund made before refunds had keys adopts it instead of paying back again', async () => {
    const paid = await grpc.payments.processPayment(paymentRequest({ orderId: 303 }), guest('10.1.1.3'));
    await service.db.em().execute(
      `insert into "payments"."refunds" ("id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency", "reason", "created_at")
       values ('re_unkeyed', 303, 'test_card', ?, 500, 'USD', 'late', now())`,
      [paid.transactionId],
    );
    const request = { orderId: 303, gatewayId: 'test_card', transactionId: paid.transactionId, amount: '5.00', currency: 'USD', reason: 'late', idempotencyKey: 'order-303-late' };
    expect((await grpc.payments.refund(request, admin)).refundId).toBe('re_unkeyed');
    expect((await grpc.payments.refund(request, admin)).refundId).toBe('re_unkeyed');
    expect(await count(`select count(*) as n from "payments"."refunds" where "order_id" = 303`)).toBe(1);
  });

  it('an action-step intent without the orders service still completes locally', async () => {
    const res = await grpc.payments.processPayment(paymentRequest({ orderId: 401, paymentPayloadJson: JSON.stringify(ACTION) }), guest('10.2.2.2'));
    expect(res.outcome).toBe('requires_action');
    expect(res.redirectUrl).toBe(`http://127.0.0.1:8080/shop/v1/test-card/authorize?intent_id=${res.intentId}`);
    const step = await grpc.testCard.getActionStep({ intentId: res.intentId }, guest());
    expect(step).toMatchObject({ orderId: 401, amount: '19.99', currency: 'USD', status: 'requires_action', brand: 'visa', last4: '3220' });
    const done = await grpc.testCard.completeActionStep({ intentId: res.intentId, outcome: 'approve' }, guest());
    expect(done).toMatchObject({ orderId: 401, outcome: 'paid', paidStatus: 'paid' });
  });
});

describe('declined action steps', () => {
  it('count against the paying IP like any decline', async () => {
    const ip = '10.3.3.3';
    for (let i = 0; i < 3; i++) {
      const res = await grpc.payments.processPayment(
        paymentRequest({ orderId: 500 + i, clientIp: ip, paymentPayloadJson: JSON.stringify(ACTION) }),
        guest(ip),
      );
      const done = await grpc.testCard.completeActionStep({ intentId: res.intentId, outcome: 'decline' }, guest());
      expect(done.outcome).toBe('failed');
    }
    const limited = await rejection(grpc.payments.processPayment(paymentRequest({ orderId: 510, clientIp: ip }), guest(ip)));
    expect(limited.code).toBe('shop_rate_limited');
  });
});

describe('no card data stored', () => {
  it('keeps no card number or CVC in any table', async () => {
    const tables = await service.db.em().execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables where table_schema = 'payments'`,
    );
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await service.db.em().execute<{ row: string }[]>(`select row_to_json(t)::text as row from "payments"."${table_name}" t`);
      dump += rows.map((r) => r.row).join('\n');
    }
    for (const secret of [VISA.card_number, DECLINED.card_number, ACTION.card_number, '"cvc"', 'card_number']) expect(dump).not.toContain(secret);
  });
});
