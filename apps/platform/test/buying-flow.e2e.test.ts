import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { US_ADDRESS, usShipping } from './support/cart-seed';

// The whole buying path across every service: a customer registers, buys with
// cod and with a card (one decline, one success), the admin marks a bacs order
// paid; then the public activity log holds entries for
// those steps and none of the customer's personal data (issue 13).
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;

const CARD = (card_number: string) => ({ card_number, exp_month: 12, exp_year: 2035, cvc: '987' });
const CUSTOMER = { email: 'grace.hopper@example.org', password: 'cobol-1959-pass', first_name: 'Grace', last_name: 'Hopper' };
const FIELDS = {
  ...US_ADDRESS,
  billing_first_name: CUSTOMER.first_name,
  billing_last_name: CUSTOMER.last_name,
  billing_email: CUSTOMER.email,
  billing_address_1: '77 Harbor Lane',
  billing_phone: '+1 555 0100',
};

beforeAll(async () => {
  stack = await startStack({ PAYMENT_RATE_LIMIT_ENABLED: 'false' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Flow Mug', amount: '12.50', stock: 50 });
  await usShipping(admin, 5, { requires: 'coupon' });
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
});

const stockOf = async (p: catalog.Product) =>
  (await seed.products.getProduct({ id: p.id, context: 'edit', ifNoneMatch: '' }, seed.caller)).product!.stockQuantity!;

async function customerWithCart(): Promise<ShopClient> {
  const c = new ShopClient(stack.url);
  const reg = await c.post('/shop/v1/auth/register', { ...CUSTOMER, auto_login: true });
  if (reg.status !== 201 && reg.status !== 200) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const add = await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 2 });
  expect(add.status).toBe(200);
  return c;
}

describe('a full buying flow', () => {
  it('declines, pays by card, bacs then marked paid, cod; orders, stats and the PII-free activity log agree', async () => {
    const c = await customerWithCart();

    const declined = await c.post('/shop/v1/checkout/place', {
      fields: FIELDS,
      payment_method: 'test_card',
      payment_payload: CARD('4000000000000002'),
    });
    expectError(declined, 402, 'shop_payment_declined');

    const paid = await c.post('/shop/v1/checkout/place', {
      fields: FIELDS,
      payment_method: 'test_card',
      payment_payload: CARD('4242424242424242'),
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ result: 'success', paid_status: 'paid' });
    // 2 x 12.50 + 5.00 flat shipping, no tax configured.
    expect(paid.body.total).toBe(30);

    await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 1 });
    const bacs = await c.post('/shop/v1/checkout/place', { fields: FIELDS, payment_method: 'bacs' });
    expect(bacs.status).toBe(200);
    expect(bacs.body.status).toBe('on_hold');

    await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 1 });
    const cod = await c.post('/shop/v1/checkout/place', { fields: FIELDS, payment_method: 'cod' });
    expect(cod.status).toBe(200);

    // The admin marks the bacs order paid; the customer cannot cancel a paid order.
    const marked = await admin.put(`/shop/v1/order/${bacs.body.order_id}`, { set_paid: true });
    expect(marked.status).toBe(200);
    expect(marked.body.paid_status).toBe('paid');
    const mine = await c.get('/shop/v1/me/orders');
    expect(mine.status).toBe(200);
    const ids = mine.body.map((o: { id: number }) => o.id);
    expect(ids).toEqual(expect.arrayContaining([paid.body.order_id, bacs.body.order_id, cod.body.order_id]));
    expect(mine.body.find((o: { id: number }) => o.id === declined.body.data.order_id)?.status ?? 'failed').toBe('failed');

    // Customer stats follow order_paid (three paid orders: 30 + 17.50 + 17.50).
    await waitFor(async () => (await c.get('/shop/v1/me')).body.stats.total_orders === 3, 30_000);
    expect((await c.get('/shop/v1/me')).body.stats.total_spent).toBe(65);

    // The public activity log: entries exist for the flow, and none carries personal data.
    const all = await waitFor(
      async () => {
        const res = await admin.get('/shop/v1/logs?per_page=100');
        return res.body.length >= 4 ? (res.body as unknown[]) : undefined;
      },
      30_000,
    );
    const text = JSON.stringify(all);
    for (const secret of [
      CUSTOMER.email,
      CUSTOMER.first_name,
      CUSTOMER.last_name,
      '77 Harbor Lane',
      '555 0100',
      '4242424242424242',
      '4000000000000002',
      '987',
    ]) {
      expect(text).not.toContain(secret);
    }
    const publicView = await new ShopClient(stack.url).get('/shop/v1/logs');
    expect(publicView.status).toBe(200);
    expect(JSON.stringify(publicView.body)).not.toContain(CUSTOMER.email);

    // An admin deletes the paid cod order for good: it leaves the customer's stats (its stock stays taken).
    const stockBefore = await stockOf(mug);
    expect((await admin.delete(`/shop/v1/order/${cod.body.order_id}`)).status).toBe(200);
    await waitFor(async () => (await c.get('/shop/v1/me')).body.stats.total_orders === 2, 30_000);
    expect((await c.get('/shop/v1/me')).body.stats.total_spent).toBe(47.5);
    expect(await stockOf(mug)).toBe(stockBefore);
  });

  it("deleting an unpaid order gives back what it held (a bank transfer's units)", async () => {
    const c = new ShopClient(stack.url);
    expect((await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 2 })).status).toBe(200);
    const before = await stockOf(mug);
    const bacs = await c.post('/shop/v1/checkout/place', { fields: FIELDS, payment_method: 'bacs' });
    expect(bacs.status).toBe(200);
    expect(await stockOf(mug)).toBe(before - 2);
    expect((await admin.delete(`/shop/v1/order/${bacs.body.order_id}`)).status).toBe(200);
    await waitFor(async () => (await stockOf(mug)) === before, 30_000);
  });
});
