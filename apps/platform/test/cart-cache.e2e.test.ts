import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@storefront/testing';
import type { catalog } from '@storefront/proto/catalog';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { taxRate, US_ADDRESS } from './support/cart-seed';

/**
 * Cart reads answer a cached priced snapshot: catalog and fulfillment change
 * events drop it (the TTL is far longer than these waits), and place always
 * prices fresh.
 */
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;

beforeAll(async () => {
  stack = await startStack({ CART_SNAPSHOT_TTL_MS: '600000' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Mug', amount: '10.00', stock: 10 });
}, 120_000);
afterAll(async () => {
  seed?.close();
  await stack?.stop();
}, 60_000);

describe('cached cart snapshots', () => {
  it('follow product and tax changes through the change events; place charges the fresh total', async () => {
    const guest = new ShopClient(stack.url);
    expect((await guest.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 2 })).status).toBe(200);
    expect((await guest.post('/shop/v1/checkout/update', { fields: US_ADDRESS })).status).toBe(200);
    const first = await guest.get('/shop/v1/cart');
    expect(first.body.items[0]).toMatchObject({ name: 'Mug', price: 10 });
    expect((await guest.get('/shop/v1/cart')).body).toEqual(first.body);

    expect((await admin.put(`/shop/v1/shop_product/${mug.id}`, { title: 'Big Mug' })).status).toBe(200);
    await waitFor(async () => (await guest.get('/shop/v1/cart')).body.items[0].name === 'Big Mug', 20_000, 100);

    await taxRate(admin, { rate: '10', name: 'Sales', country: 'US', priority: 1, shipping: true });
    await waitFor(async () => (await guest.get('/shop/v1/cart')).body.totals.tax > 0, 20_000, 100);
    const shown = (await guest.get('/shop/v1/cart')).body.totals;
    expect(shown).toMatchObject({ subtotal: 20, tax: 2, total: 22 });

    const placed = await guest.post('/shop/v1/checkout/place', { fields: US_ADDRESS, payment_method: 'cod' });
    expect(placed.status).toBe(200);
    expect(Number(placed.body.total)).toBe(22);
  }, 90_000);
});
