import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { silentLogger, waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { US_ADDRESS, usShipping } from './support/cart-seed';

let stack: Platform;
let me: ShopClient;
let listener: EventTransport;
const erasures: string[] = [];

beforeAll(async () => {
  stack = await startStack({ SHOP_ADDONS: 'card' });
  me = new ShopClient(stack.url);
  await me.post('/shop/v1/auth/register', { email: 'kim@example.com', password: 'password-1', first_name: 'Kim' });
  const env = stack.services[0].config;
  listener = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    name: 'me-test',
    logger: silentLogger(),
  });
  await listener.consume('me_test', listener.subjectFor(CustomerEvents.erasureRequested.subject), async (m) => {
    erasures.push(CustomerEvents.erasureRequested.codec.decode(m.data).requestId);
  });
});
afterAll(async () => {
  await listener?.close();
  await stack?.stop();
});

describe('logged-in tier', () => {
  it.each([
    ['GET', '/shop/v1/me'],
    ['PUT', '/shop/v1/me'],
    ['PUT', '/shop/v1/me/password'],
    ['GET', '/shop/v1/me/menu'],
    ['GET', '/shop/v1/me/addresses'],
    ['PATCH', '/shop/v1/me/addresses/billing'],
    ['GET', '/shop/v1/me/notifications'],
    ['PUT', '/shop/v1/me/privacy'],
    ['POST', '/shop/v1/me/privacy/erase-request'],
  ])('%s %s answers 401 shop_rest_not_logged_in to a guest', async (method, path) => {
    const json = method === 'GET' ? undefined : {};
    expectError(await new ShopClient(stack.url).request(method, path, { json }), 401, 'shop_rest_not_logged_in');
  });
});

describe('GET/PUT /me', () => {
  it('returns the profile with zeroed stats', async () => {
    const res = await me.get('/shop/v1/me');
    expect(res.body).toEqual({
      id: expect.any(Number),
      username: 'kim',
      email: 'kim@example.com',
      first_name: 'Kim',
      last_name: '',
      display_name: 'Kim',
      avatar_url: expect.stringContaining('gravatar'),
      user_registered: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      subscribe_to_email: false,
      stats: { total_orders: 0, total_spent: 0, total_downloads: 0 },
      has_billing_address: false,
      has_shipping_address: false,
      _links: { self: [{ href: `${stack.url}/shop/v1/me` }] },
    });
  });

  it('updates allowed fields; email must be valid and unique', async () => {
    const res = await me.patch('/shop/v1/me', { last_name: 'Park', display_name: 'K. Park', subscribe_to_email: true });
    expect(res.body).toMatchObject({ last_name: 'Park', display_name: 'K. Park', subscribe_to_email: true });
    expectError(await me.put('/shop/v1/me', { email: 'nope' }), 400, 'rest_invalid_param');
    expectError(await me.put('/shop/v1/me', { email: ADMIN.email.toUpperCase() }), 409, 'shop_rest_email_taken');
    expect((await me.put('/shop/v1/me', { email: 'kim.park@example.com' })).body.email).toBe('kim.park@example.com');
    expectError(await me.put('/shop/v1/me', { first_name: 42 }), 400, 'rest_invalid_param');
  });
});

describe('PUT /me/password', () => {
  it('checks the current password and the new length', async () => {
    expectError(await me.put('/shop/v1/me/password', { current_password: 'wrong-one', new_password: 'another-1' }), 400, 'shop_rest_bad_password');
    expectError(await me.put('/shop/v1/me/password', { current_password: 'password-1', new_password: 'short' }), 400, 'rest_invalid_param');
    expectError(await me.put('/shop/v1/me/password', { new_password: 'another-1' }), 400, 'rest_missing_callback_param');
    const other = new ShopClient(stack.url);
    await other.login('kim', 'password-1');
    expect(await me.put('/shop/v1/me/password', { current_password: 'password-1', new_password: 'another-1' })).toMatchObject({
      status: 200,
      body: { updated: true },
    });
    expect((await me.get('/shop/v1/me')).status).toBe(200); // this session stays
    await waitFor(async () => (await other.get('/shop/v1/me')).status === 401); // the other one ended
    expect((await new ShopClient(stack.url).post('/shop/v1/auth/login', { username: 'kim', password: 'another-1' })).status).toBe(200);
  });
});

describe('addresses', () => {
  it('reads both and updates one subset', async () => {
    const empty = await me.get('/shop/v1/me/addresses');
    expect(Object.keys(empty.body.billing).sort()).toEqual(
      ['address_1', 'address_2', 'city', 'company', 'country', 'email', 'first_name', 'last_name', 'phone', 'postcode', 'state'],
    );
    const res = await me.patch('/shop/v1/me/addresses/billing', { address_1: '1 Main St', city: 'Austin', state: 'TX', country: 'US' });
    expect(res.body).toMatchObject({ address_1: '1 Main St', city: 'Austin', state: 'TX', country: 'US', company: '' });
    expect((await me.get('/shop/v1/me')).body.has_billing_address).toBe(true);
    expect((await me.get('/shop/v1/me/addresses')).body.shipping.address_1).toBe('');
    expectError(await me.put('/shop/v1/me/addresses/work', { city: 'x' }), 404, 'rest_no_route');
    expectError(await me.put('/shop/v1/me/addresses/shipping', { email: 'not-an-email' }), 400, 'rest_invalid_param');
    expectError(await me.put('/shop/v1/me/addresses/shipping', { city: 7 }), 400, 'rest_invalid_param');
  });

  it('a checkout remembers the addresses it was placed with (the next checkout starts from them)', async () => {
    const admin = new ShopClient(stack.url);
    await admin.login(ADMIN.login, ADMIN.password);
    await usShipping(admin, 5, { requires: 'none' });
    const product = await admin.post('/shop/v1/shop_product', { title: 'Atlas', status: 'publish', prices: [{ amount: 12 }] });
    const buyer = new ShopClient(stack.url);
    await buyer.post('/shop/v1/auth/register', { email: 'lee@example.com', password: 'password-1' });
    expect((await buyer.post('/shop/v1/cart/items', { price_id: product.body.prices[0].id, quantity: 1 })).status).toBe(200);
    const fields = { ...US_ADDRESS, ship_to_different_address: '1', shipping_first_name: 'Lee', shipping_address_1: '9 Elm St', shipping_city: 'Peoria', shipping_state: 'IL', shipping_postcode: '61602', shipping_country: 'US' };
    const placed = await buyer.post('/shop/v1/checkout/place', { fields, payment_method: 'cod' });
    expect(placed.status).toBe(200);
    const remembered = await waitFor(async () => {
      const res = await buyer.get('/shop/v1/me/addresses');
      return res.body.billing.address_1 ? res.body : undefined;
    }, 15_000, 100);
    expect(remembered.billing).toMatchObject({ first_name: 'Ada', address_1: '1 Main St', city: 'Springfield', state: 'IL', postcode: '62701', country: 'US', email: 'ada@example.com' });
    expect(remembered.shipping).toMatchObject({ first_name: 'Lee', address_1: '9 Elm St', city: 'Peoria' });
    expect((await buyer.get('/shop/v1/me')).body).toMatchObject({ has_billing_address: true, has_shipping_address: true });
    // An order an admin creates for the customer leaves the customer's addresses alone.
    const id = (await buyer.get('/shop/v1/me')).body.id;
    await admin.post('/shop/v1/order', { customer_id: id, billing: { first_name: 'X', address_1: 'Admin Rd', country: 'US', email: 'x@example.com' }, line_items: [{ price_id: product.body.prices[0].id }] });
    await new Promise((r) => setTimeout(r, 500));
    expect((await buyer.get('/shop/v1/me/addresses')).body.billing.address_1).toBe('1 Main St');
  });
});

describe('preferences', () => {
  it('notifications', async () => {
    expect((await me.get('/shop/v1/me/notifications')).body).toEqual({
      subscribe_to_email: true,
      order_email: true,
      marketing_email: false,
    });
    const res = await me.put('/shop/v1/me/notifications', { marketing_email: true, order_email: false });
    expect(res.body).toEqual({ subscribe_to_email: true, order_email: false, marketing_email: true });
    expectError(await me.put('/shop/v1/me/notifications', { marketing_email: 'yes' }), 400, 'rest_invalid_param');
  });

  it('privacy', async () => {
    expect((await me.get('/shop/v1/me/privacy')).body).toEqual({ data_sharing_consent: false, profiling_consent: false });
    expect((await me.put('/shop/v1/me/privacy', { profiling_consent: true })).body).toEqual({
      data_sharing_consent: false,
      profiling_consent: true,
    });
  });

  it('erase request is recorded and dispatched', async () => {
    const res = await me.post('/shop/v1/me/privacy/erase-request');
    expect(res.body).toEqual({ request_id: expect.any(String), status: 'requested' });
    await waitFor(() => erasures.includes(res.body.request_id));
  });
});

describe('GET /me/menu', () => {
  it('lists the sidebar sorted by order, with payment methods when a tokenizing gateway is active', async () => {
    const res = await me.get('/shop/v1/me/menu');
    expect(res.body.map((i: { id: string }) => i.id)).toEqual([
      'dashboard',
      'orders',
      'downloads',
      'addresses',
      'payment-methods',
      'account',
    ]);
    const orders = res.body.map((i: { order: number }) => i.order);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });
});

describe('without the subscriptions addon', () => {
  it('has no subscription routes (404, as the spec says of an absent addon) and no menu item', async () => {
    for (const res of [
      await me.get('/shop/v1/me/subscriptions'),
      await me.get('/shop/v1/me/subscriptions/1'),
      await me.post('/shop/v1/me/subscriptions/1/cancel'),
      await new ShopClient(stack.url).get('/shop/v1/subscription'),
      await new ShopClient(stack.url).get('/shop/v1/subscription/1'),
    ]) {
      expectError(res, 404, 'rest_no_route');
    }
    expect((await me.get('/shop/v1/me/menu')).body.map((i: { id: string }) => i.id)).not.toContain('subscriptions');
  });
});

describe('without the embed addon', () => {
  it('has no publishable-key routes, and a keyed cart or checkout request finds no key handler (spec 5)', async () => {
    const guest = new ShopClient(stack.url);
    expectError(await guest.get('/platform/v1/publishable-keys'), 404, 'rest_no_route');
    expectError(await guest.post('/platform/v1/publishable-keys', { name: 'x' }), 404, 'rest_no_route');
    expectError(await guest.get('/shop/v1/cart', { headers: { 'x-shop-pk': 'pk_test' } }), 401, 'shop_cart_pk_unsupported');
    expectError(await guest.get('/shop/v1/cart?pk=pk_test'), 401, 'shop_cart_pk_unsupported');
    // The mini cart is plainly public (spec 5: keys are for cart and checkout): a key there is not looked at.
    expect((await guest.get('/shop/v1/mini-cart/current', { headers: { 'x-shop-pk': 'pk_x' } })).status).toBe(200);
    expectError(await guest.get('/shop/v1/checkout/state', { headers: { 'x-shop-embed-key': 'pk_test' } }), 401, 'shop_checkout_pk_unsupported');
    expectError(await guest.post('/shop/v1/checkout/update', {}, { headers: { 'x-shop-pk': 'pk_x' } }), 401, 'shop_checkout_pk_unsupported');
    // A keyless request is unchanged.
    expect((await guest.get('/shop/v1/cart')).status).toBe(200);
  });
});
