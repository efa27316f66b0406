import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { US_ADDRESS, usShipping } from './support/cart-seed';

// The embed addon (contract "Host platform", spec 5 "Publishable / embed key"): publishable keys,
// keyed cross-origin cart and checkout requests, CORS only for a key's allowed origins.
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;
const SHOP = 'https://shop.example';
const OTHER = 'https://evil.example';

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Embed Mug', amount: '10.00', stock: 20 });
  await usShipping(admin, 5, { requires: 'coupon' });
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
});

async function createKey(origins: string[], name = 'Partner site') {
  const res = await admin.post('/platform/v1/publishable-keys', { name, allowed_origins: origins });
  expect([res.status, res.status === 201 ? '' : res.body]).toEqual([201, '']);
  return res.body as { id: number; name: string; key: string; allowed_origins: string[]; created: string };
}

describe('/platform/v1/publishable-keys', () => {
  it('creates, lists and revokes keys (manage_options)', async () => {
    const key = await createKey(['https://Shop.Example:443/', 'http://localhost:3000']);
    expect(key).toEqual({
      id: expect.any(Number),
      name: 'Partner site',
      key: expect.stringMatching(/^pk_[0-9a-f]{32}$/),
      allowed_origins: [SHOP, 'http://localhost:3000'],
      created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const list = await admin.get('/platform/v1/publishable-keys');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(key);
    const deleted = await admin.delete(`/platform/v1/publishable-keys/${key.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, previous: key });
    expect((await admin.get('/platform/v1/publishable-keys')).body).not.toContainEqual(key);
    expectError(await admin.delete(`/platform/v1/publishable-keys/${key.id}`), 404);
  });

  it('refuses what is not an origin, and callers without manage_options', async () => {
    for (const origin of ['shop.example', 'ftp://shop.example', 'https://shop.example/path', 'https://shop.example/?q=1']) {
      expectError(await admin.post('/platform/v1/publishable-keys', { name: 'x', allowed_origins: [origin] }), 400, 'rest_invalid_param');
    }
    expectError(await admin.post('/platform/v1/publishable-keys', { allowed_origins: 'https://shop.example' }), 400, 'rest_invalid_param');
    const guest = new ShopClient(stack.url);
    expectError(await guest.get('/platform/v1/publishable-keys'), 401);
    expectError(await guest.post('/platform/v1/publishable-keys', { name: 'x' }), 401);
    const customer = new ShopClient(stack.url);
    await customer.post('/shop/v1/auth/register', { email: 'embed-customer@example.com', password: 'password-1' });
    await customer.login('embed-customer@example.com', 'password-1');
    expectError(await customer.get('/platform/v1/publishable-keys'), 403);
    expectError(await customer.delete('/platform/v1/publishable-keys/1'), 403);
  });
});

describe('keyed cart and checkout requests', () => {
  it('an embedded page (no cookies, session_id / X-Shop-Session) buys across origins, with CORS for its origin only', async () => {
    const { key } = await createKey([SHOP]);
    const page = new ShopClient(stack.url);
    const headers = { origin: SHOP, 'x-shop-pk': key };
    const added = await page.request('POST', '/shop/v1/cart/items', { json: { price_id: mug.prices[0].id, quantity: 2 }, headers });
    expect(added.status).toBe(200);
    expect(added.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(added.headers.get('access-control-allow-credentials')).toBe('true');
    expect(added.headers.get('access-control-expose-headers')).toMatch(/X-Shop-Session/);
    const session = added.headers.get('x-shop-session')!;
    expect(session).toBeTruthy();

    // A fresh client (a cross-origin frame sends no cookies): the session travels as X-Shop-Session or session_id.
    const frame = new ShopClient(stack.url);
    const cart = await frame.get(`/shop/v1/cart?pk=${key}&session_id=${encodeURIComponent(session)}`, { headers: { origin: SHOP } });
    expect(cart.status).toBe(200);
    expect(cart.body.item_count).toBe(2);
    expect(cart.headers.get('vary')).toMatch(/Origin/);
    const state = await frame.get('/shop/v1/checkout/state', { headers: { origin: SHOP, 'x-shop-embed-key': key, 'x-shop-session': session } });
    expect(state.status).toBe(200);
    expect(state.headers.get('access-control-allow-origin')).toBe(SHOP);
    const placed = await frame.request('POST', '/shop/v1/checkout/place', {
      json: { fields: US_ADDRESS, payment_method: 'cod', session_id: session },
      headers: { origin: SHOP, 'x-shop-embed-key': key },
    });
    expect([placed.status, placed.body.result]).toEqual([200, 'success']);
    expect(placed.headers.get('access-control-allow-origin')).toBe(SHOP);

    // Another origin with the same key: served (the browser enforces CORS), but never granted CORS.
    const elsewhere = await frame.get('/shop/v1/cart', { headers: { origin: OTHER, 'x-shop-pk': key } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    // A server-side call (no Origin) with the key: served, no CORS headers.
    const server = await frame.get('/shop/v1/cart', { headers: { 'x-shop-pk': key } });
    expect(server.status).toBe(200);
    expect(server.headers.get('access-control-allow-origin')).toBeNull();
    // Keyless requests never get CORS headers.
    expect((await frame.get('/shop/v1/cart', { headers: { origin: SHOP } })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a CORS preflight for an allowed origin (spec 4.2 rule 7 headers), and nothing for others', async () => {
    const { key } = await createKey(['https://preflight.example']);
    const preflight = (origin: string, path = '/shop/v1/checkout/place') =>
      fetch(`${stack.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-shop-embed-key' },
      });
    const ok = await preflight('https://preflight.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://preflight.example');
    const allowed = ok.headers.get('access-control-allow-headers')!;
    for (const h of ['X-Shop-Embed-Key', 'X-Shop-Pk', 'X-Platform-Nonce', 'Content-Type']) expect(allowed).toContain(h);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    const withKey = await preflight('https://preflight.example', `/shop/v1/cart/items?pk=${key}`);
    expect(withKey.status).toBe(204);
    const refused = await preflight(OTHER);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // Outside cart and checkout there is no CORS at all.
    expect((await preflight('https://preflight.example', '/shop/v1/shop_product')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('denies an unknown or revoked key with 401 shop_pk_invalid', async () => {
    const guest = new ShopClient(stack.url);
    expectError(await guest.get('/shop/v1/cart', { headers: { 'x-shop-pk': 'pk_unknown' } }), 401, 'shop_pk_invalid');
    expectError(await guest.get('/shop/v1/checkout/state?pk=pk_unknown'), 401, 'shop_pk_invalid');
    const { id, key } = await createKey([SHOP]);
    expect((await guest.get('/shop/v1/cart', { headers: { 'x-shop-pk': key } })).status).toBe(200);
    expect((await admin.delete(`/platform/v1/publishable-keys/${id}`)).status).toBe(200);
    expectError(await guest.get('/shop/v1/cart', { headers: { 'x-shop-pk': key, origin: SHOP } }), 401, 'shop_pk_invalid');
    expectError(
      await guest.post('/shop/v1/checkout/update', { fields: {} }, { headers: { 'x-shop-embed-key': key } }),
      401,
      'shop_pk_invalid',
    );
  });
});
