import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { anonymousCaller, bindClient, openChannel, type Channel, type PromiseClient } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import { payments } from '@storefront/proto/payments';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';
import { checkoutOrder, connectOrders, systemCaller, type OrdersGrpc } from './support/orders';

// Everything every service and the gateway logs, at debug level, to scan for card data.
const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
});

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let alice: ShopClient;
let bob: ShopClient;
let guest: ShopClient;
let channel: Channel;
let paymentService: PromiseClient<typeof payments.PaymentServiceService>;
let ordersGrpc: OrdersGrpc;
let aliceId = 0;

const VISA = { card_number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '7319' };
const DECLINED = { ...VISA, card_number: '4000000000000002' };
const ACTION = { ...VISA, card_number: '4000000000003220' };
const CARD_SECRETS = ['4242424242424242', '4000000000000002', '4000000000003220', '"cvc"', 'card_number'];

beforeAll(async () => {
  stack = await startStack(
    { TRUST_PROXY: '127.0.0.1', SHOP_SITE_URL: 'http://shop.example.test', INTENT_SWEEP_SECONDS: '0.2', LATE_REFUND_RETRY_SECONDS: '1', LATE_REFUND_STALE_SECONDS: '5' },
    { logger: (name) => pino({ level: 'debug', base: { name } }, sink) },
  );
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  const created = await admin.post('/shop/v1/customer', {
    email: 'manager@example.com',
    username: 'manager',
    password: 'password-1',
    roles: ['shop_manager'],
  });
  expect(created.status).toBe(201);
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  alice = new ShopClient(stack.url);
  expect((await alice.post('/shop/v1/auth/register', { email: 'alice@example.com', password: 'password-1' })).status).toBe(200);
  bob = new ShopClient(stack.url);
  expect((await bob.post('/shop/v1/auth/register', { email: 'bob@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  const service = stack.services.find((s) => s.name === 'payments')!;
  channel = openChannel('payments', service.address);
  paymentService = bindClient(channel, payments.PaymentServiceService);
  ordersGrpc = connectOrders(stack);
  aliceId = (await alice.get('/shop/v1/me')).body.id;
  expect(aliceId).toBeGreaterThan(0);
}, 180_000);

afterAll(async () => {
  channel?.close();
  ordersGrpc?.close();
  await stack?.stop();
}, 60_000);

/** A client whose requests come from `ip` (the gateway trusts X-Forwarded-For from 127.0.0.1 in this stack). */
function fromIp(client: ShopClient, ip: string) {
  const headers = { 'x-forwarded-for': ip };
  return {
    post: (path: string, json?: unknown, extra: Record<string, string> = {}) => client.post(path, json, { headers: { ...headers, ...extra } }),
  };
}

let ipCounter = 1;
const nextIp = () => `198.51.100.${ipCounter++}`;

function expectInvalid(res: ShopResponse, field?: string): void {
  expectError(res, 400, 'rest_invalid_param');
  if (field) expect(Object.keys(res.body.data.params)).toContain(field);
}

async function addCard(client: ShopClient, card: object = VISA, extra: Record<string, string> = {}): Promise<ShopResponse> {
  return fromIp(client, nextIp()).post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: card }, extra);
}

describe('capability matrix', () => {
  it('admin routes: 401 guest, 403 customer and shop_manager, 200 admin', async () => {
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.get('/shop/v1/payment/all'),
      (c) => c.get('/shop/v1/payment/1'),
      (c) => c.get('/shop/v1/settings/payment-gateways'),
      (c) => c.put('/shop/v1/settings/payment-gateways', { config: { cod: { index: 0 } } }),
      (c) => c.patch('/shop/v1/settings/payment-gateways', { config: { cod: { index: 0 } } }),
      (c) => c.put('/shop/v1/settings/verify-payment-gateways', { method: 'cod', config: {} }),
      (c) => c.patch('/shop/v1/settings/verify-payment-gateways', { method: 'cod', config: {} }),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'shop_rest_forbidden_context');
      expectError(await call(alice), 403, 'shop_rest_forbidden_context');
      expectError(await call(manager), 403, 'shop_rest_forbidden_context');
    }
    // payment/1 is 404 for the admin (no such order); every other route answers 200.
    for (const [i, call] of calls.entries()) {
      const res = await call(admin);
      if (i === 1) expect(res.status).toBe(404);
      else expect(res.status).toBe(200);
    }
  }, 60_000);

  it('payment-methods routes: 401 shop_payment_methods_login_required for guests; me routes 401 shop_rest_not_logged_in', async () => {
    expectError(await guest.post('/shop/v1/payment-methods', { payment_method: 'test_card' }), 401, 'shop_payment_methods_login_required');
    expectError(await guest.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'test_card' }), 401, 'shop_payment_methods_login_required');
    expectError(await guest.delete('/shop/v1/payment-methods/1'), 401, 'shop_payment_methods_login_required');
    expectError(await guest.post('/shop/v1/payment-methods/1/default'), 401, 'shop_payment_methods_login_required');
    expectError(await guest.get('/shop/v1/me/payment-methods'), 401, 'shop_rest_not_logged_in');
    expectError(await guest.delete('/shop/v1/me/payment-methods/1'), 401, 'shop_rest_not_logged_in');
    expectError(await guest.post('/shop/v1/me/payment-methods/1/default'), 401, 'shop_rest_not_logged_in');
    for (const client of [alice, manager, admin]) {
      const res = await client.get('/shop/v1/me/payment-methods');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
    }
  });

  it('public routes: GET /payment needs an order id (400 invalid-request) for everyone; POST /payment is deprecated', async () => {
    for (const client of [guest, alice, manager, admin]) {
      expectError(await client.get('/shop/v1/payment'), 400, 'invalid-request');
      // An empty, zero or non-numeric id is no id at all.
      for (const query of ['order_id=', 'order_id=0', 'id=abc', 'payment=0&order=']) {
        expectError(await client.get(`/shop/v1/payment?${query}`), 400, 'invalid-request');
      }
      expectError(await client.post('/shop/v1/payment', { order_id: 1 }), 400, 'endpoint_is_deprecated');
      expectError(await client.post('/shop/v1/payment'), 400, 'endpoint_is_deprecated');
    }
  });
});

describe('GET /payment (order-scoped)', () => {
  it('reads the id from id, order, order_id, payment or payment_id; an order the caller cannot see is 404', async () => {
    for (const name of ['id', 'order', 'order_id', 'payment', 'payment_id']) {
      const res = await guest.get(`/shop/v1/payment?${name}=424242`);
      expect(res.status).toBe(404);
      expect(res.body.data.status).toBe(404);
    }
    // Not a positive id: no id given (the host platform's absint), whichever name carries it.
    expectError(await guest.get('/shop/v1/payment?order_id=abc'), 400, 'invalid-request');
    expectError(await guest.get('/shop/v1/payment?id=-1'), 400, 'invalid-request');
    expect((await guest.get('/shop/v1/payment?id=-1&order_id=424242')).status).toBe(404);
  });
});

describe('GET /payment/all', () => {
  it('lists every registered gateway with its spec 2.11 attributes, available or not, with pagination headers', async () => {
    const res = await admin.get('/shop/v1/payment/all');
    expect(res.status).toBe(200);
    expect(res.body.map((g: { id: string }) => g.id)).toEqual(['cod', 'bacs', 'test_card']);
    expect(res.headers.get('x-platform-total')).toBe('3');
    const card = res.body.find((g: { id: string }) => g.id === 'test_card');
    expect(card).toMatchObject({
      title: expect.any(String),
      description: expect.any(String),
      method_title: 'Test card',
      method_description: expect.any(String),
      icon: '',
      has_fields: true,
      index: 2,
      max_amount: 0,
      saved_cards: true,
      verify_config: true,
      enabled: true,
      available: true,
      supports_intents: true,
    });
    expect(card.supports).toEqual(expect.arrayContaining(['products', 'refunds', 'tokenization', 'add_payment_method', 'subscriptions']));
    expect(card.admin_fields.map((f: { type: string }) => f.type)).toEqual(
      expect.arrayContaining(['safe_text', 'textarea', 'text', 'password', 'copy_text', 'checkbox', 'multiselect']),
    );
    expect(card.settings).toBeUndefined();
    const edit = await admin.get('/shop/v1/payment/all?context=edit&include[]=test_card');
    expect(edit.body).toHaveLength(1);
    expect(edit.body[0].settings.secret_key).toBe('********');

    const page = await admin.get('/shop/v1/payment/all?per_page=1&page=2&orderby=id&order=desc');
    expect(page.body.map((g: { id: string }) => g.id)).toEqual(['cod']);
    expect(page.headers.get('x-platform-totalpages')).toBe('3');
    expect((await admin.get('/shop/v1/payment/all?search=bank')).body.map((g: { id: string }) => g.id)).toEqual(['bacs']);
    expectInvalid(await admin.get('/shop/v1/payment/all?per_page=101'), 'per_page');
    expectInvalid(await admin.get('/shop/v1/payment/all?orderby=price'), 'orderby');
    // slug (gateway ids) and status (enabled in the settings or not) filter like the other collections.
    const ids = async (query: string) => (await admin.get(`/shop/v1/payment/all?${query}`)).body.map((g: { id: string }) => g.id);
    expect(await ids('slug=bacs,cod')).toEqual(['cod', 'bacs']);
    expect((await admin.patch('/shop/v1/settings/payment-gateways', { config: { bacs: { is_enabled: false } } })).status).toBe(200);
    try {
      expect(await ids('status=disabled')).toEqual(['bacs']);
      expect(await ids('status=enabled')).toEqual(['cod', 'test_card']);
      expect(await ids('status=any')).toEqual(['cod', 'bacs', 'test_card']);
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { bacs: { is_enabled: true } } });
    }
    expectInvalid(await admin.get('/shop/v1/payment/all?status=paused'), 'status');
  });
});

describe('settings/payment-gateways', () => {
  it('OPTIONS returns the schema generated from the registered gateways', async () => {
    const res = await admin.options('/shop/v1/settings/payment-gateways');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('shop/v1');
    expect(res.body.methods).toEqual(expect.arrayContaining(['PUT', 'PATCH']));
    const props = res.body.schema.properties;
    expect(Object.keys(props)).toEqual(['cod', 'bacs', 'test_card']);
    expect(props.test_card.properties).toMatchObject({
      is_enabled: { type: 'boolean' },
      index: { type: 'integer' },
      secret_key: { type: 'string', format: 'password' },
      capture: { type: 'boolean' },
      card_brands: { type: 'array' },
      webhook_url: { readOnly: true },
    });
  });

  it('validates and sanitizes every field type; passwords never come back in clear; PUT and PATCH merge', async () => {
    const original = (await admin.get('/shop/v1/settings/payment-gateways')).body;
    const res = await admin.patch('/shop/v1/settings/payment-gateways', {
      config: {
        bacs: {
          title: '  Bank <b>transfer</b>\n now ',
          description: 'Line one <script>alert(1)</script>\nLine <i>two</i>',
          account_name: 'Shop\u0007 Ltd <em>x</em>',
          index: 5,
          is_enabled: false,
        },
        test_card: {
          title: 'Card <strong>pay</strong> <img src=x onerror=alert(1)>',
          secret_key: 'sk_test_new',
          capture: 'no',
          saved_cards: true,
          card_brands: ['visa', 'amex', 'visa'],
          webhook_url: 'http://attacker.example/',
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.bacs).toMatchObject({
      title: 'Bank <b>transfer</b> now',
      description: 'Line one\nLine two',
      account_name: 'Shop Ltd x',
      index: 5,
      is_enabled: false,
    });
    expect(res.body.test_card).toMatchObject({
      title: 'Card <strong>pay</strong>',
      secret_key: '********',
      capture: false,
      saved_cards: true,
      card_brands: ['visa', 'amex'],
      webhook_url: '',
    });
    expect(JSON.stringify(res.body)).not.toContain('sk_test_new');
    // GET masks too; sending the mask back keeps the stored secret (verify still passes).
    const read = await admin.get('/shop/v1/settings/payment-gateways');
    expect(read.body.test_card.secret_key).toBe('********');
    expect(JSON.stringify(read.body)).not.toContain('sk_test_new');
    const kept = await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { secret_key: '********' } } });
    expect(kept.status).toBe(200);
    expect((await admin.put('/shop/v1/settings/verify-payment-gateways', { method: 'test_card', config: { secret_key: '********' } })).body).toEqual({
      verified: true,
      message: expect.any(String),
    });
    // test_card verifies its settings (verify_config): a bad key is refused and nothing of the request is saved.
    const bad = await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { secret_key: 'nope', title: 'Renamed' }, cod: { title: 'Never' } } });
    expectError(bad, 422, 'shop_payment_gateway_verification_failed');
    const after = (await admin.get('/shop/v1/settings/payment-gateways')).body;
    expect(after.test_card.title).toBe(read.body.test_card.title);
    expect(after.cod.title).toBe(read.body.cod.title);
    // bacs disabled: no longer available, still listed.
    const all = await admin.get('/shop/v1/payment/all');
    expect(all.body.find((g: { id: string }) => g.id === 'bacs')).toMatchObject({ enabled: false, available: false, index: 5 });
    // PUT merges as PATCH does (the spec gives them one row): unlisted fields keep their values.
    const put = await admin.put('/shop/v1/settings/payment-gateways', { config: { bacs: { account_name: 'Other' } } });
    expect(put.body.bacs).toMatchObject({ account_name: 'Other', is_enabled: false, index: 5, title: 'Bank <b>transfer</b> now' });
    // Back to the settings the other tests expect (the masked secret keeps the stored one).
    const restored = await admin.put('/shop/v1/settings/payment-gateways', { config: { bacs: original.bacs, test_card: original.test_card } });
    expect(restored.status).toBe(200);
    expect(restored.body.bacs).toEqual(original.bacs);
  });

  it('rejects wrong types, unknown gateways and fields with 400 naming each field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ cod: { is_enabled: 'maybe' } }, 'config.cod.is_enabled'],
      [{ cod: { index: 'first' } }, 'config.cod.index'],
      [{ cod: { index: -1 } }, 'config.cod.index'],
      [{ cod: { title: 42 } }, 'config.cod.title'],
      [{ cod: { description: ['x'] } }, 'config.cod.description'],
      [{ bacs: { account_name: { a: 1 } } }, 'config.bacs.account_name'],
      [{ test_card: { secret_key: 7 } }, 'config.test_card.secret_key'],
      [{ test_card: { webhook_url: false } }, 'config.test_card.webhook_url'],
      [{ test_card: { capture: 'perhaps' } }, 'config.test_card.capture'],
      [{ test_card: { card_brands: 'visa' } }, 'config.test_card.card_brands'],
      [{ test_card: { card_brands: ['diners'] } }, 'config.test_card.card_brands'],
      [{ cod: { colour: 'red' } }, 'config.cod.colour'],
      [{ paypal: { is_enabled: true } }, 'config.paypal'],
      [{ cod: 'on' }, 'config.cod'],
      [{ cod: { title: 'x'.repeat(10_001) } }, 'config.cod.title'],
    ];
    for (const [config, field] of cases) {
      const res = await admin.patch('/shop/v1/settings/payment-gateways', { config });
      expectInvalid(res, field);
    }
    expectError(await admin.put('/shop/v1/settings/payment-gateways', {}), 400, 'rest_missing_callback_param');
    expectInvalid(await admin.put('/shop/v1/settings/payment-gateways', { config: 'cod' }), 'config');
    expectInvalid(await admin.put('/shop/v1/settings/payment-gateways', { config: [] }), 'config');
    // Nothing was stored by the failed requests.
    const all = await admin.get('/shop/v1/settings/payment-gateways');
    expect(all.body.cod).toMatchObject({ is_enabled: true, index: 0, title: 'Cash on delivery' });
  });

  it('verify-payment-gateways verifies without persisting', async () => {
    const bad = await admin.patch('/shop/v1/settings/verify-payment-gateways', { method: 'test_card', config: { secret_key: 'live_key' } });
    expectError(bad, 422, 'shop_payment_gateway_verification_failed');
    const good = await admin.put('/shop/v1/settings/verify-payment-gateways', { method: 'test_card', config: { secret_key: 'sk_test_other' } });
    expect(good.body.verified).toBe(true);
    expect((await admin.get('/shop/v1/payment/all?context=edit&include[]=test_card')).status).toBe(200);
    expectInvalid(await admin.put('/shop/v1/settings/verify-payment-gateways', { method: 'nope', config: {} }), 'method');
    expectError(await admin.put('/shop/v1/settings/verify-payment-gateways', { config: {} }), 400, 'rest_missing_callback_param');
    expectInvalid(await admin.put('/shop/v1/settings/verify-payment-gateways', { method: 'test_card', config: { capture: 'x' } }), 'config.capture');
    expect((await admin.put('/shop/v1/settings/verify-payment-gateways', { method: 'cod', config: {} })).body.verified).toBe(true);
  });
});

describe('saved payment methods', () => {
  it('adds a card (brand, last 4, expiry only), lists it, makes defaults and deletes; others\' tokens are 404', async () => {
    const first = await addCard(alice);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      result: 'success',
      token: { gateway: 'test_card', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, is_default: true },
    });
    expect(first.body.token.display_name).toContain('4242');
    const second = await addCard(alice, { ...VISA, card_number: '5555555555554444', exp_year: 34 });
    expect(second.body.token).toMatchObject({ brand: 'mastercard', last4: '4444', exp_year: 2034, is_default: false });

    const listed = await alice.get('/shop/v1/me/payment-methods');
    expect(listed.body.map((t: { id: number }) => t.id)).toEqual([first.body.token.id, second.body.token.id]);
    // A list that is never paged still says how long it is.
    expect(listed.headers.get('x-platform-total')).toBe('2');
    expect(listed.headers.get('x-platform-totalpages')).toBe('1');
    expect(Object.keys(listed.body[0]).sort()).toEqual(
      ['_links', 'brand', 'date_created', 'display_name', 'exp_month', 'exp_year', 'gateway', 'id', 'is_default', 'last4'].sort(),
    );
    expect(listed.body[0]._links).toEqual({
      self: [{ href: `http://shop.example.test/shop/v1/payment-methods/${first.body.token.id}` }],
      collection: [{ href: 'http://shop.example.test/shop/v1/me/payment-methods' }],
    });
    expect((await bob.get('/shop/v1/me/payment-methods')).body).toEqual([]);

    const def = await alice.post(`/shop/v1/payment-methods/${second.body.token.id}/default`);
    expect(def.body).toEqual({ default: true, token_id: second.body.token.id });
    const meDef = await alice.post(`/shop/v1/me/payment-methods/${first.body.token.id}/default`);
    expect(meDef.body).toEqual({ default: true, token_id: first.body.token.id });
    expect((await alice.get('/shop/v1/me/payment-methods')).body.map((t: { is_default: boolean }) => t.is_default)).toEqual([true, false]);

    // Bob cannot touch Alice's tokens: 404, never 403.
    expectError(await bob.delete(`/shop/v1/payment-methods/${first.body.token.id}`), 404, 'shop_payment_methods_invalid_token');
    expectError(await bob.post(`/shop/v1/payment-methods/${first.body.token.id}/default`), 404, 'shop_payment_methods_invalid_token');
    expectError(await bob.delete(`/shop/v1/me/payment-methods/${first.body.token.id}`), 404, 'shop_payment_methods_invalid_token');
    expectError(await bob.post(`/shop/v1/me/payment-methods/${first.body.token.id}/default`), 404, 'shop_payment_methods_invalid_token');
    expectError(await alice.delete('/shop/v1/payment-methods/999999'), 404, 'shop_payment_methods_invalid_token');
    expectError(await alice.delete('/shop/v1/payment-methods/9999999999'), 404, 'shop_payment_methods_invalid_token');
    expectError(await alice.delete('/shop/v1/payment-methods/abc'), 404, 'shop_payment_methods_invalid_token');

    expect((await alice.delete(`/shop/v1/payment-methods/${first.body.token.id}`)).body).toEqual({ deleted: true, token_id: first.body.token.id });
    // The remaining token becomes the default.
    expect((await alice.get('/shop/v1/me/payment-methods')).body).toMatchObject([{ id: second.body.token.id, is_default: true }]);
    expect((await alice.delete(`/shop/v1/me/payment-methods/${second.body.token.id}`)).body).toEqual({ deleted: true, token_id: second.body.token.id });
    expect((await alice.get('/shop/v1/me/payment-methods')).body).toEqual([]);
  });

  it('answers every error code of spec 4.12', async () => {
    expectError(await bob.post('/shop/v1/payment-methods', { payment_method: 'cod' }), 422, 'shop_payment_methods_unsupported');
    expectError(await bob.post('/shop/v1/payment-methods', { payment_method: 'paypal' }), 422, 'shop_payment_methods_unsupported');
    expectError(await bob.post('/shop/v1/payment-methods', {}), 400, 'rest_missing_callback_param');
    expectInvalid(await bob.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: 'card' }), 'payment_payload');
    expectInvalid(await bob.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: {} }), 'payment_payload');
    expectInvalid(
      await bob.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: { ...VISA, card_number: 'abc' } }),
      'payment_payload.card_number',
    );
    expectInvalid(
      await bob.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: { ...VISA, exp_month: 13 } }),
      'payment_payload.exp_month',
    );
    expectError(await bob.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'cod' }), 422, 'shop_payment_methods_setup_unsupported');
    expectError(await bob.post('/shop/v1/payment-methods/setup-intent', {}), 400, 'rest_missing_callback_param');
    // The card gateway switched off: inactive.
    await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { is_enabled: false } } });
    try {
      expectError(await bob.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'test_card' }), 422, 'shop_payment_methods_gateway_inactive');
      expectError(await bob.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: VISA }), 422, 'shop_payment_methods_unsupported');
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { is_enabled: true } } });
    }
    // A declined card is refused.
    const declined = await addCard(bob, DECLINED);
    expectError(declined, 422, 'shop_payment_method_declined');
    expect(declined.body.data.decline_reason).toBe('card_declined');
  });

  it('setup intent -> confirm with the card -> payment_method_id saves it', async () => {
    const intent = await bob.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'test_card', return_url: 'https://shop.example/back' });
    expect(intent.status).toBe(200);
    expect(intent.body).toEqual({ client_secret: expect.stringContaining('_secret_'), intent_id: expect.stringMatching(/^seti_/), mode: 'setup' });
    const saved = await addCard(bob, { payment_method_id: intent.body.intent_id, ...VISA });
    expect(saved.body.token).toMatchObject({ last4: '4242', brand: 'visa' });
    // Used: it cannot be confirmed again, nor by another customer.
    expectInvalid(await addCard(bob, { payment_method_id: intent.body.intent_id, ...VISA }), 'payment_payload.payment_method_id');
    expectInvalid(await addCard(alice, { payment_method_id: intent.body.intent_id }), 'payment_payload.payment_method_id');
    // Saved once: sending the confirmed intent again answers the same token, never a second one.
    const again = await addCard(bob, { payment_method_id: intent.body.intent_id });
    expect(again.status).toBe(200);
    expect(again.body.token.id).toBe(saved.body.token.id);
    expect((await bob.get('/shop/v1/me/payment-methods')).body.filter((t: { id: number }) => t.id === saved.body.token.id)).toHaveLength(1);
    await bob.delete(`/shop/v1/payment-methods/${saved.body.token.id}`);
    expectInvalid(await addCard(bob, { payment_method_id: intent.body.intent_id }), 'payment_payload.payment_method_id');
  });

  it('a setup intent confirmed separately is saved once, however often its id is sent', async () => {
    const intent = await bob.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'test_card' });
    const first = await addCard(bob, { payment_method_id: intent.body.intent_id, ...VISA });
    const before = (await bob.get('/shop/v1/me/payment-methods')).body.length;
    const replies = await Promise.all([1, 2, 3].map(() => addCard(bob, { payment_method_id: intent.body.intent_id })));
    for (const r of replies) expect([r.status, r.body.token?.id]).toEqual([200, first.body.token.id]);
    expect((await bob.get('/shop/v1/me/payment-methods')).body).toHaveLength(before);
    await bob.delete(`/shop/v1/payment-methods/${first.body.token.id}`);
  });

  it('Idempotency-Key: the same key replays the first result (one token); another body is 422', async () => {
    const key = { 'idempotency-key': 'add-card-1' };
    const first = await addCard(alice, VISA, key);
    const again = await addCard(alice, VISA, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.token.id).toBe(first.body.token.id);
    // The same body with its keys in another order is the same request.
    const reordered = await addCard(alice, { cvc: VISA.cvc, exp_year: VISA.exp_year, exp_month: VISA.exp_month, card_number: VISA.card_number }, key);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.token.id).toBe(first.body.token.id);
    expect((await alice.get('/shop/v1/me/payment-methods')).body).toHaveLength(1);
    expectError(await addCard(alice, { ...VISA, exp_month: 11 }, key), 422, 'shop_idempotency_key_reused');
    // Keys are per caller: Bob's same key is his own.
    const bobs = await addCard(bob, VISA, key);
    expect(bobs.headers.get('idempotent-replayed')).toBeNull();
    expect(bobs.body.token.id).not.toBe(first.body.token.id);
    expectInvalid(await addCard(alice, VISA, { 'idempotency-key': 'x'.repeat(256) }), 'Idempotency-Key');
    // A decline is the key's first answer too: replayed (marked), not tried again.
    const declinedCard = { ...VISA, card_number: '4000000000000002' };
    const declined = await addCard(alice, declinedCard, { 'idempotency-key': 'declined-add' });
    expect(declined.status).toBeGreaterThanOrEqual(400);
    expect(declined.headers.get('idempotent-replayed')).toBeNull();
    const declinedAgain = await addCard(alice, declinedCard, { 'idempotency-key': 'declined-add' });
    expect(declinedAgain.status).toBe(declined.status);
    expect(declinedAgain.body.code).toBe(declined.body.code);
    expect(declinedAgain.headers.get('idempotent-replayed')).toBe('true');
    await alice.delete(`/shop/v1/payment-methods/${first.body.token.id}`);
    await bob.delete(`/shop/v1/payment-methods/${bobs.body.token.id}`);
  });
});

describe('me/menu', () => {
  const ids = async (client: ShopClient) => ((await client.get('/shop/v1/me/menu')).body as Array<{ id: string }>).map((i) => i.id);

  it('has "payment methods" exactly when an active gateway supports tokenization', async () => {
    expect(await ids(alice)).toContain('payment-methods');
    await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { is_enabled: false } } });
    try {
      const without = await ids(alice);
      expect(without).not.toContain('payment-methods');
      expect(without).toEqual(expect.arrayContaining(['dashboard', 'orders', 'downloads', 'addresses', 'account']));
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { is_enabled: true } } });
    }
    expect(await ids(alice)).toContain('payment-methods');
  });

  it('saved_cards off: no payment methods item, no new saved cards (422), /payment/all says so', async () => {
    await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { saved_cards: false } } });
    try {
      expect(await ids(alice)).not.toContain('payment-methods');
      expectError(await addCard(alice), 422, 'shop_payment_methods_unsupported');
      // Nor a setup intent: the card it confirms could never be saved.
      expectError(await alice.post('/shop/v1/payment-methods/setup-intent', { payment_method: 'test_card' }), 422, 'shop_payment_methods_unsupported');
      const all = await admin.get('/shop/v1/payment/all');
      expect(all.body.find((g: { id: string }) => g.id === 'test_card')).toMatchObject({ saved_cards: false });
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { saved_cards: true } } });
    }
    expect(await ids(alice)).toContain('payment-methods');
  });
});

describe('test_card outcomes, the action step and GET /payment (with the orders service)', () => {
  const order = async (fields: Partial<orders.CreateOrderRequest> = {}) => {
    const { order } = await ordersGrpc.checkout.createOrder(
      checkoutOrder({ paymentMethod: 'test_card', paymentMethodTitle: 'Credit card (test)', customerId: aliceId, ...fields }),
      systemCaller(),
    );
    return order!;
  };
  const pay = (o: { id: number; orderKey: string; total: string }, card: object, extra: Partial<payments.ProcessPaymentRequest> = {}) =>
    paymentService.processPayment(
      payments.ProcessPaymentRequest.fromPartial({
        orderId: o.id,
        orderKey: o.orderKey,
        gatewayId: 'test_card',
        amount: o.total,
        currency: 'USD',
        customerId: aliceId,
        paymentPayloadJson: JSON.stringify(card),
        clientIp: '192.0.2.200',
        returnUrl: 'https://shop.example.test/thanks',
        ...extra,
      }),
      anonymousCaller('e2e', '192.0.2.200'),
    );
  const record = (o: { id: number; orderKey: string }, outcome: 'paid' | 'failed' | 'on_hold', transactionId = '') =>
    ordersGrpc.checkout.recordPaymentResult(
      { orderId: o.id, outcome, transactionId, paymentMethod: 'test_card', paymentMethodTitle: 'Credit card (test)', message: '' },
      systemCaller(),
    );

  it('saves the card at checkout when the shopper asks (save_payment_method); takes only brands the settings accept', async () => {
    const before = (await alice.get('/shop/v1/me/payment-methods')).body.length;
    const o = await order();
    const paid = await pay(o, { ...VISA, card_number: '4111111111111111', save_payment_method: true });
    expect(paid.outcome).toBe('paid');
    const saved = (await alice.get('/shop/v1/me/payment-methods')).body;
    expect(saved).toHaveLength(before + 1);
    expect(saved.at(-1)).toMatchObject({ brand: 'visa', last4: '1111' });
    // Without the flag nothing is saved.
    expect((await pay(await order(), VISA)).outcome).toBe('paid');
    expect((await alice.get('/shop/v1/me/payment-methods')).body).toHaveLength(before + 1);
    // Brands the settings leave out are refused before any charge, naming the field.
    const brands = (await admin.get('/shop/v1/settings/payment-gateways')).body.test_card.card_brands;
    expect((await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { card_brands: ['visa'] } } })).status).toBe(200);
    try {
      const MASTERCARD = { ...VISA, card_number: '5555555555554444' };
      const refused = await pay(await order(), MASTERCARD).then(
        () => undefined,
        (err: { code: string; status: number; data: { params: Record<string, string> } }) => err,
      );
      expect(refused).toMatchObject({ code: 'rest_invalid_param', status: 400 });
      expect(refused!.data.params['payment_payload.card_number']).toMatch(/mastercard cards are not accepted/);
      expectError(await addCard(alice, MASTERCARD), 400, 'rest_invalid_param');
      expect((await pay(await order(), VISA)).outcome).toBe('paid');
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { test_card: { card_brands: brands } } });
    }
  });

  it('4242 is paid, 0002 is declined with a reason; GET /payment shows the record to the owner, by key, and to admins', async () => {
    const o = await order();
    const paid = await pay(o, VISA);
    expect(paid).toMatchObject({ outcome: 'paid', transactionId: expect.stringMatching(/^ch_/), declineReason: '' });
    await record(o, 'paid', paid.transactionId);
    const expected = {
      order_id: o.id,
      status: 'processing',
      paid_status: 'paid',
      payment_method: 'test_card',
      transaction_id: paid.transactionId,
      amount: 27.5,
      currency: 'USD',
      gateway: { id: 'test_card', title: 'Credit card (test)' },
      _links: {
        self: [{ href: `http://shop.example.test/shop/v1/payment/${o.id}` }],
        collection: [{ href: 'http://shop.example.test/shop/v1/payment' }],
      },
    };
    expect((await alice.get(`/shop/v1/payment?order_id=${o.id}`)).body).toEqual(expected);
    expect((await guest.get(`/shop/v1/payment?id=${o.id}&key=${o.orderKey}`)).body).toEqual(expected);
    expect((await admin.get(`/shop/v1/payment?payment_id=${o.id}`)).body).toEqual(expected);
    expectError(await bob.get(`/shop/v1/payment?order=${o.id}`), 404);
    expectError(await guest.get(`/shop/v1/payment?order=${o.id}&key=wrong`), 404);
    const detail = await admin.get(`/shop/v1/payment/${o.id}?context=edit`);
    expect(detail.body).toMatchObject(expected);
    expect(detail.body.attempts).toEqual([
      expect.objectContaining({ gateway: 'test_card', amount: 27.5, currency: 'USD', outcome: 'paid', transaction_id: paid.transactionId, decline_reason: '' }),
    ]);

    const d = await order();
    const declined = await pay(d, DECLINED);
    expect(declined).toMatchObject({ outcome: 'declined', declineReason: 'card_declined', transactionId: '' });
    const attempts = (await admin.get(`/shop/v1/payment/${d.id}?context=edit`)).body.attempts;
    expect(attempts).toEqual([expect.objectContaining({ outcome: 'declined', decline_reason: 'card_declined' })]);
  });

  it('3220 requires action: redirect_url on the configured site URL, Approve completes the order', async () => {
    const o = await order();
    const res = await pay(o, ACTION);
    expect(res.outcome).toBe('requires_action');
    expect(res.redirectUrl).toBe(`http://shop.example.test/shop/v1/test-card/authorize?intent_id=${res.intentId}`);
    expect(res.clientSecret).toContain('_secret_');
    await record(o, 'requires_action' as 'paid');
    const pagePath = new URL(res.redirectUrl).pathname + new URL(res.redirectUrl).search;
    const html = await guest.get(pagePath, { headers: { host: 'evil.example' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.body).toContain('Approve');
    expect(html.body).toContain('Decline');
    expect(html.body).toContain('27.50 USD');
    expect(html.body).not.toContain('4000000000003220');
    expect(html.body).not.toContain('evil.example');
    const approved = await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ order_id: o.id, status: 'processing', paid_status: 'paid' });
    // Idempotent: the same answer again changes nothing.
    expect((await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'approve' })).body).toEqual(approved.body);
    expect((await guest.get(pagePath)).body).not.toContain('data-outcome');
    expect((await alice.get(`/shop/v1/payment?order_id=${o.id}`)).body).toMatchObject({ paid_status: 'paid', transaction_id: expect.stringMatching(/^ch_/) });
    // The replay of the original payment now reports the completed attempt.
    expect((await pay(o, ACTION)).outcome).toBe('paid');
  });

  it('3220 approved after an admin cancelled the order: the payment is recorded on the cancelled order and refunded', async () => {
    const o = await order();
    const res = await pay(o, ACTION);
    await record(o, 'requires_action' as 'paid');
    expect((await admin.patch(`/shop/v1/order/${o.id}`, { status: 'cancelled' })).status).toBe(200);
    const approved = await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ order_id: o.id, status: 'cancelled', paid_status: 'refunded' });
    const detail = (await admin.get(`/shop/v1/order/${o.id}?context=edit`)).body;
    expect(detail).toMatchObject({ status: 'cancelled', paid_status: 'refunded', transaction_id: expect.stringMatching(/^ch_/) });
    expect(detail.meta_data.map((m: { key: string }) => m.key)).not.toContain('refund_due');
    const db = stack.services.find((s) => s.name === 'payments')!.db;
    const refunds = await db.em().execute(`select "transaction_id", "amount_minor"::int as "amount_minor" from "payments"."refunds" where "order_id" = ?`, [o.id]);
    expect(refunds).toEqual([{ transaction_id: detail.transaction_id, amount_minor: 2750 }]);
    // Told again (the customer approves twice, a checkout retries): nothing more is refunded.
    expect((await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'approve' })).body).toEqual(approved.body);
    expect((await record(o, 'paid', detail.transaction_id)).order).toMatchObject({ status: 'cancelled', paidStatus: 'refunded' });
    expect(await db.em().execute(`select 1 from "payments"."refunds" where "order_id" = ?`, [o.id])).toHaveLength(1);
  });

  it('3220 left pending while the order is paid another way: approving it later never charges the card', async () => {
    const paidAttempts = async (orderId: number) =>
      ((await admin.get(`/shop/v1/payment/${orderId}?context=edit`)).body.attempts as Array<{ outcome: string }>).filter((a) => a.outcome === 'paid');
    // Another card pays the order while the first authorization waits.
    const o = await order();
    const pending = await pay(o, ACTION);
    await record(o, 'requires_action' as 'paid');
    const other = await pay(o, VISA);
    expect(other.outcome).toBe('paid');
    await record(o, 'paid', other.transactionId);
    const late = await guest.post('/shop/v1/test-card/authorize', { intent_id: pending.intentId, outcome: 'approve' });
    expectError(late, 409, 'shop_order_already_paid');
    expect(late.body.message).toContain('not charged');
    expect(await paidAttempts(o.id)).toHaveLength(1);
    expect((await alice.get(`/shop/v1/payment?order_id=${o.id}`)).body.transaction_id).toBe(other.transactionId);
    // Told again: the same refusal; the page says so and offers no buttons.
    expectError(await guest.post('/shop/v1/test-card/authorize', { intent_id: pending.intentId, outcome: 'approve' }), 409, 'shop_order_already_paid');
    const page = (await guest.get(`/shop/v1/test-card/authorize?intent_id=${pending.intentId}`)).body as string;
    expect(page).toContain('canceled');
    expect(page).not.toContain('data-outcome');

    // An admin marks the order paid (cash, a bank transfer) while the authorization waits.
    const m = await order();
    const waiting = await pay(m, ACTION);
    await record(m, 'requires_action' as 'paid');
    expect((await admin.patch(`/shop/v1/order/${m.id}`, { set_paid: true })).body.paid_status).toBe('paid');
    expectError(await guest.post('/shop/v1/test-card/authorize', { intent_id: waiting.intentId, outcome: 'approve' }), 409, 'shop_order_already_paid');
    expect(await paidAttempts(m.id)).toHaveLength(0);
  });

  it('a late failure on a cancelled order changes nothing; a late payment the gateway cannot refund stays flagged for an admin', async () => {
    const failedLate = await order();
    expect((await admin.patch(`/shop/v1/order/${failedLate.id}`, { status: 'cancelled' })).status).toBe(200);
    expect((await record(failedLate, 'failed')).order).toMatchObject({ status: 'cancelled', paidStatus: 'unpaid' });

    // No transaction id: test_card refuses the refund, so the order keeps the payment and the flag.
    const o = await order();
    expect((await admin.patch(`/shop/v1/order/${o.id}`, { status: 'cancelled' })).status).toBe(200);
    expect((await record(o, 'paid', '')).order).toMatchObject({ status: 'cancelled', paidStatus: 'paid' });
    const detail = (await admin.get(`/shop/v1/order/${o.id}?context=edit`)).body;
    const flag = detail.meta_data.find((m: { key: string }) => m.key === 'refund_due');
    expect(flag?.value).toMatchObject({ state: 'failed', error: expect.any(String) });
  });

  it('a late-payment refund a stopped process left unfinished is finished by the retry job, and the money goes back once', async () => {
    const ordersDb = stack.services.find((s) => s.name === 'orders')!.db;
    const paymentsDb = stack.services.find((s) => s.name === 'payments')!.db;
    // The state a process leaves when it stops mid-refund: the payment recorded on the cancelled order, its refund
    // claimed (`refunding`) or not yet (`due`) a minute ago; or a refund that failed while payments was unreachable.
    const strand = async (state: 'due' | 'refunding' | 'failed', extra: Record<string, unknown> = {}) => {
      const o = await order();
      const paid = await pay(o, VISA);
      expect((await admin.patch(`/shop/v1/order/${o.id}`, { status: 'cancelled' })).status).toBe(200);
      const due = { state, transaction_id: paid.transactionId, reason: 'The order was cancelled before its payment completed.', since: new Date(Date.now() - 60_000).toISOString(), ...extra };
      await ordersDb.em().execute(
        `update "orders"."orders" set "paid_status" = 'paid', "transaction_id" = ?, "meta_data" = ?::jsonb where "id" = ?`,
        [paid.transactionId, JSON.stringify([{ id: 1, key: 'refund_due', value: due }]), o.id],
      );
      return { o, transactionId: paid.transactionId };
    };
    const claimed = await strand('refunding');
    // It stopped after the gateway refunded but before orders heard back: the retry, under the same key, refunds nothing more.
    const key = `order-${claimed.o.id}-${createHash('sha256').update(claimed.transactionId).digest('hex').slice(0, 16)}-late-payment`;
    const first = await paymentService.refund(
      { orderId: claimed.o.id, gatewayId: 'test_card', transactionId: claimed.transactionId, amount: '27.50', currency: 'USD', reason: 'late', idempotencyKey: key },
      systemCaller(),
    );
    // Written before refunds had keys (no `since`): it may have reached the gateway unkeyed, so it is left to an admin.
    const legacy = await strand('refunding', { since: undefined });
    const unclaimed = await strand('due');
    const unreachable = await strand('failed', { retryable: true, failures: 1, error: 'payments is unavailable' });
    for (const { o } of [claimed, unclaimed, unreachable]) {
      await waitFor(async () => (await admin.get(`/shop/v1/order/${o.id}?context=edit`)).body.paid_status === 'refunded', 20_000);
      const detail = (await admin.get(`/shop/v1/order/${o.id}?context=edit`)).body;
      expect(detail).toMatchObject({ status: 'cancelled', paid_status: 'refunded' });
      expect(detail.meta_data.map((m: { key: string }) => m.key)).not.toContain('refund_due');
    }
    const refunds = async (orderId: number) =>
      paymentsDb.em().execute<Array<{ id: string; amount_minor: number }>>(`select "id", "amount_minor"::int as "amount_minor" from "payments"."refunds" where "order_id" = ?`, [orderId]);
    expect(await refunds(claimed.o.id)).toEqual([{ id: first.refundId, amount_minor: 2750 }]);
    expect(await refunds(unclaimed.o.id)).toEqual([{ id: expect.stringMatching(/^re_/), amount_minor: 2750 }]);
    expect(await refunds(unreachable.o.id)).toEqual([{ id: expect.stringMatching(/^re_/), amount_minor: 2750 }]);
    const left = (await admin.get(`/shop/v1/order/${legacy.o.id}?context=edit`)).body;
    expect(left).toMatchObject({ status: 'cancelled', paid_status: 'paid' });
    expect(left.meta_data.find((m: { key: string }) => m.key === 'refund_due')?.value).toMatchObject({ state: 'refunding' });
    expect(await refunds(legacy.o.id)).toEqual([]);
  });

  it('3220 then Decline fails the order', async () => {
    const o = await order();
    const res = await pay(o, ACTION);
    const declined = await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'decline' });
    expect(declined.status).toBe(200);
    expect(declined.body).toEqual({ order_id: o.id, status: 'failed', paid_status: 'unpaid' });
    const attempts = (await admin.get(`/shop/v1/payment/${o.id}?context=edit`)).body.attempts;
    expect(attempts[0]).toMatchObject({ outcome: 'failed', decline_reason: 'authentication_failed' });
  });

  it('an intent left unconfirmed fails by itself (the expiry job) and the order is failed', async () => {
    const o = await order();
    const res = await pay(o, ACTION);
    const db = stack.services.find((s) => s.name === 'payments')!.db;
    await db.em().execute(`update "payments"."intents" set "expires_at" = now() - interval '1 second' where "id" = ?`, [res.intentId]);
    await waitFor(async () => (await alice.get(`/shop/v1/payment?order_id=${o.id}`)).body.status === 'failed', 20_000);
    const attempts = (await admin.get(`/shop/v1/payment/${o.id}?context=edit`)).body.attempts;
    expect(attempts[0]).toMatchObject({ outcome: 'failed', decline_reason: 'intent_expired' });
    expectError(await guest.post('/shop/v1/test-card/authorize', { intent_id: res.intentId, outcome: 'approve' }), 410, 'shop_payment_intent_expired');
    expect((await guest.get(`/shop/v1/test-card/authorize?intent_id=${res.intentId}`)).body).toContain('expired');
  });

  it('rejects bad action-step input with 4xx', async () => {
    expectError(await guest.get('/shop/v1/test-card/authorize'), 400, 'rest_missing_callback_param');
    expectError(await guest.get('/shop/v1/test-card/authorize?intent_id=pi_unknown'), 404, 'shop_payment_intent_invalid');
    expectError(await guest.post('/shop/v1/test-card/authorize', { intent_id: 'pi_unknown', outcome: 'approve' }), 404, 'shop_payment_intent_invalid');
    expectInvalid(await guest.post('/shop/v1/test-card/authorize', { intent_id: 'pi_x', outcome: 'maybe' }), 'outcome');
    expectError(await guest.post('/shop/v1/test-card/authorize', {}), 400, 'rest_missing_callback_param');
  });

  it('escapes everything the page shows', async () => {
    const patched = await admin.patch('/platform/v1/settings', { store_name: '<script>alert("x")</script>' });
    expect(patched.status).toBe(200);
    try {
      const res = await pay(await order(), ACTION);
      let html = '';
      // the payments service caches site options for a few seconds
      await waitFor(async () => {
        html = (await guest.get(`/shop/v1/test-card/authorize?intent_id=${res.intentId}`)).body as string;
        return html.includes('&lt;script');
      }, 20_000);
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt;');
      expect(html).not.toContain('<script>alert');
    } finally {
      await admin.patch('/platform/v1/settings', { store_name: 'Storefront' });
    }
  });

  it('the same payment twice with one idempotency key makes one charge', async () => {
    const o = await order();
    const first = await pay(o, VISA, { idempotencyKey: `order-${o.id}-pay` });
    const second = await pay(o, VISA, { idempotencyKey: `order-${o.id}-pay` });
    expect(second).toMatchObject({ outcome: 'paid', transactionId: first.transactionId, paymentId: first.paymentId, replayed: true });
    // Without a key, a paid order is never charged again either.
    const third = await pay(o, VISA);
    expect(third).toMatchObject({ transactionId: first.transactionId, replayed: true });
    await expect(pay(o, { ...VISA, exp_month: 10 }, { idempotencyKey: `order-${o.id}-pay` })).rejects.toMatchObject({ code: 'shop_idempotency_key_reused', status: 422 });
    const db = stack.services.find((s) => s.name === 'payments')!.db;
    const rows = await db.em().execute(`select count(*)::int as n from "payments"."payment_attempts" where "order_id" = ?`, [o.id]);
    expect(rows[0].n).toBe(1);
  });
});

describe('card-testing defence', () => {
  it('the 21st declined attempt from one IP is 429 with Retry-After; another IP is unaffected', async () => {
    const ip = '203.0.113.77';
    const card = { payment_method: 'test_card', payment_payload: DECLINED };
    for (let i = 0; i < 20; i++) {
      const res = await fromIp(bob, ip).post('/shop/v1/payment-methods', card);
      expectError(res, 422, 'shop_payment_method_declined');
    }
    const limited = await fromIp(bob, ip).post('/shop/v1/payment-methods', card);
    expectError(limited, 429, 'shop_rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.data.retry_after).toBeGreaterThan(0);
    // Even a good card is refused from that IP for now; another IP is fine.
    expectError(await fromIp(bob, ip).post('/shop/v1/payment-methods', { ...card, payment_payload: VISA }), 429, 'shop_rate_limited');
    const other = await fromIp(bob, '203.0.113.78').post('/shop/v1/payment-methods', { ...card, payment_payload: VISA });
    expect(other.status).toBe(200);
    await bob.delete(`/shop/v1/payment-methods/${other.body.token.id}`);
    // A placement from that IP is refused when its card payload is checked, before any stock or order is taken for it.
    const validate = (gatewayId: string) =>
      paymentService.validatePayment(
        payments.ValidatePaymentRequest.fromPartial({ gatewayId, paymentPayloadJson: JSON.stringify(VISA), customerId: aliceId }),
        anonymousCaller('e2e', ip),
      );
    await expect(validate('test_card')).rejects.toMatchObject({ code: 'shop_rate_limited', status: 429 });
    await expect(validate('cod')).resolves.toBeDefined();
    // Cash on delivery from that IP takes no card and cannot decline: not limited.
    const { order: held } = await ordersGrpc.checkout.createOrder(
      checkoutOrder({ paymentMethod: 'cod', paymentMethodTitle: 'Cash on delivery', customerId: aliceId }),
      systemCaller(),
    );
    const cod = await paymentService.processPayment(
      payments.ProcessPaymentRequest.fromPartial({
        orderId: held!.id,
        orderKey: held!.orderKey,
        gatewayId: 'cod',
        amount: held!.total,
        currency: 'USD',
        customerId: aliceId,
        paymentPayloadJson: '{}',
        clientIp: ip,
      }),
      anonymousCaller('e2e', ip),
    );
    expect(cod.outcome).toBe('paid');
  });
});

describe('bad input is a 4xx error object, never a 5xx', () => {
  it('handles huge, malformed and wrongly typed bodies', async () => {
    const calls: Array<() => Promise<ShopResponse>> = [
      () => alice.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: { card_number: 'x'.repeat(100_000) } }),
      () => alice.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: { token_id: 'abc' } }),
      () => alice.post('/shop/v1/payment-methods', { payment_method: 7 }),
      () => alice.post('/shop/v1/payment-methods', { payment_method: 'test_card', extra: true }),
      () => alice.post('/shop/v1/payment-methods', undefined, { raw: '{"payment_method":', headers: { 'content-type': 'application/json' } }),
      () => alice.post('/shop/v1/payment-methods', { payment_method: 'x'.repeat(61) }),
      () => alice.post('/shop/v1/payment-methods', { payment_method: 'te\u0000st' }),
      () => admin.patch('/shop/v1/settings/payment-gateways', { config: { ['x'.repeat(500)]: {} } }),
      () => admin.get('/shop/v1/payment/99999999999'),
      () => admin.get('/shop/v1/payment/all?page=0'),
      () => guest.get(`/shop/v1/test-card/authorize?intent_id=${'x'.repeat(100)}`),
      () => guest.post('/shop/v1/test-card/authorize', { intent_id: 5, outcome: 'approve' }),
    ];
    for (const [i, call] of calls.entries()) {
      const res = await call();
      if (res.status < 400) throw new Error(`call ${i} answered ${res.status}`);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String), data: { status: res.status } });
    }
  });

  it('refuses NUL in settings text (the gateway input rule) and strips other control characters', async () => {
    expectError(await admin.patch('/shop/v1/settings/payment-gateways', { config: { cod: { instructions: 'a\u0000b' } } }), 400, 'rest_invalid_param');
    const res = await admin.patch('/shop/v1/settings/payment-gateways', { config: { cod: { instructions: 'a\u0007b' } } });
    expect(res.status).toBe(200);
    expect(res.body.cod.instructions).toBe('ab');
  });

  it('ProcessPayment: unknown gateway 422, wrong payload shape 400, never INTERNAL', async () => {
    const base = { orderId: 77, gatewayId: 'test_card', amount: '10.00', currency: 'USD' };
    const call = (over: object) => paymentService.processPayment(payments.ProcessPaymentRequest.fromPartial({ ...base, ...over }), anonymousCaller('e2e'));
    await expect(call({ gatewayId: 'paypal' })).rejects.toMatchObject({ code: 'shop_checkout_invalid_gateway', status: 422 });
    await expect(call({ paymentPayloadJson: '[1,2]' })).rejects.toMatchObject({ code: 'rest_invalid_param', status: 400 });
    await expect(call({ paymentPayloadJson: '{"card_number": 4242}' })).rejects.toMatchObject({ code: 'rest_invalid_param', status: 400 });
    await expect(call({ paymentPayloadJson: 'not json' })).rejects.toMatchObject({ code: 'rest_invalid_param', status: 400 });
    await expect(call({ amount: 'ten', paymentPayloadJson: JSON.stringify(VISA) })).rejects.toMatchObject({ code: 'rest_invalid_param', status: 400 });
  });
});

describe('API description', () => {
  it('documents every payments route with an operationId, the payments tag and error responses', async () => {
    const res = await guest.get('/shop/v1/openapi.json');
    expect(res.status).toBe(200);
    const ops: Array<{ operationId?: string; tags?: string[]; responses?: Record<string, unknown> }> = [];
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      if (!/\/(payment|payment-methods|me\/payment-methods|settings\/(verify-)?payment-gateways|test-card)(\/|$)/.test(path)) continue;
      for (const [method, op] of Object.entries(item)) if (method !== 'options' && op?.responses) ops.push(op);
    }
    expect(ops.length).toBeGreaterThanOrEqual(18);
    for (const op of ops) {
      expect(op.operationId).toEqual(expect.any(String));
      expect(op.tags).toEqual(['payments']);
      expect(Object.keys(op.responses!).some((code) => Number(code) >= 400)).toBe(true);
    }
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
  });
});

describe('no card data at rest or in logs', () => {
  it('finds no card number or CVC in the payments database or the captured logs', async () => {
    const db = stack.services.find((s) => s.name === 'payments')!.db;
    const tables = await db.em().execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables where table_schema = 'payments'`,
    );
    expect(tables.length).toBeGreaterThan(5);
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await db.em().execute<{ row: string }[]>(`select row_to_json(t)::text as row from "payments"."${table_name}" t`);
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain('4242'); // last 4 are kept, so the scan sees the data
    for (const secret of CARD_SECRETS) expect(dump).not.toContain(secret);
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of CARD_SECRETS) expect(logs).not.toContain(secret);
  });
});
