import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { checkoutOrder, connectOrders, systemCaller, type OrdersGrpc } from './support/orders';

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let catalogAdmin: CatalogAdmin;
let grpc: OrdersGrpc;
let customerId: number;
let mug: { productId: number; priceId: number };
let ebook: { productId: number; priceId: number };

const ORDERS = '/shop/v1/order';
const US = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'US', state: 'CA', city: 'LA', postcode: '90001' };

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'buyer@example.com', password: 'password-1' })).status).toBe(200);
  customerId = (await customer.get('/shop/v1/me')).body.id;
  guest = new ShopClient(stack.url);
  catalogAdmin = await connectCatalogAdmin(stack, admin);
  const m = await catalogAdmin.simpleProduct({ title: 'Mug', amount: '10.00', shippingRequired: true });
  mug = { productId: m.id, priceId: m.prices[0].id };
  const e = await catalogAdmin.simpleProduct({ title: 'Ebook', amount: '4.99', shippingRequired: false, downloadable: true });
  ebook = { productId: e.id, priceId: e.prices[0].id };
  // Fulfillment: US zone with a 5.00 flat rate, 10 % tax in the US (shipping taxed too).
  const zone = await admin.post('/shop/v1/shipping/zones', { zone_name: 'US', zone_locations: ['US'] });
  expect(zone.status).toBe(201);
  expect((await admin.post(`/shop/v1/shipping/zones/${zone.body.id}/methods`, { method_id: 'flat_rate', cost: 5 })).status).toBe(201);
  expect((await admin.post('/shop/v1/taxes', { country: 'US', rate: '10', name: 'US tax', shipping: true })).status).toBe(201);
  grpc = connectOrders(stack);
});
afterAll(async () => {
  grpc?.close();
  catalogAdmin?.close();
  await stack?.stop();
});

async function createOrder(fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await admin.post(ORDERS, {
    billing: US,
    shipping: US,
    line_items: [{ price_id: mug.priceId, quantity: 2 }],
    payment_method: 'bacs',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(JSON.stringify(res.body.data.params ?? {})).toContain(field);
}

describe('permission tier: admin (manage_options)', () => {
  it('is 401 for guests and 403 for customers and shop managers on every /order route; 2xx for the admin', async () => {
    const order = await createOrder();
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.get(ORDERS),
      (c) => c.post(ORDERS, { line_items: [] }),
      (c) => c.get(`${ORDERS}/${order.id}`),
      (c) => c.put(`${ORDERS}/${order.id}`, { customer_note: 'x' }),
      (c) => c.patch(`${ORDERS}/${order.id}`, { customer_note: 'y' }),
      (c) => c.post(`${ORDERS}/${order.id}/order_item`, { price_id: mug.priceId, quantity: 1 }),
      (c) => c.put(`${ORDERS}/${order.id}/order_item/${order.line_items[0].id}`, { quantity: 3 }),
      (c) => c.patch(`${ORDERS}/${order.id}/order_item/${order.line_items[0].id}`, { quantity: 2 }),
      (c) => c.put(`${ORDERS}/batch`, { update: [{ id: order.id, customer_note: 'b' }] }),
      (c) => c.patch(`${ORDERS}/batch`, { update: [{ id: order.id, customer_note: 'b' }] }),
      (c) => c.get(`${ORDERS}/get_states/US`),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'shop_rest_forbidden_context');
      expectError(await call(customer), 403, 'shop_rest_forbidden_context');
      expectError(await call(manager), 403, 'shop_rest_forbidden_context');
      const res = await call(admin);
      expect([200, 201]).toContain(res.status);
    }
    const victim = await createOrder();
    const removals: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.request('DELETE', `${ORDERS}/${victim.id}/order_item`, { json: { item_ids: [victim.line_items[0].id] } }),
      (c) => c.delete(`${ORDERS}/${victim.id}`),
    ];
    for (const call of removals) {
      expectError(await call(guest), 401);
      expectError(await call(customer), 403);
      expectError(await call(manager), 403);
      expect((await call(admin)).status).toBe(200);
    }
  });
});

/** A product's stock level as catalog holds it now. */
async function stockOf(productId: number): Promise<number | undefined> {
  return (await catalogAdmin.products.getProduct({ id: productId, context: 'edit', ifNoneMatch: '' }, catalogAdmin.caller)).product!.stockQuantity;
}

describe('POST /order', () => {
  it('takes stock as a checkout does: refused past the stock, held while pending, kept when paid, given back on cancel', async () => {
    const boxes = await catalogAdmin.simpleProduct({ title: 'Boxes', amount: '5.00', stock: 4 });
    const stock = () => stockOf(boxes.id);
    const lines = (quantity: number) => [{ price_id: boxes.prices[0].id, quantity }];
    expectError(await admin.post(ORDERS, { billing: US, line_items: lines(10) }), 422, 'shop_order_invalid_line_item');
    expect(await stock()).toBe(4);
    const pending = await admin.post(ORDERS, { billing: US, line_items: lines(1) });
    expect(pending.status).toBe(201);
    expect(await stock()).toBe(3);
    const paid = await admin.post(ORDERS, { billing: US, line_items: lines(2), set_paid: true });
    expect(paid.body).toMatchObject({ status: 'processing', paid_status: 'paid' });
    expect(await stock()).toBe(1);
    expectError(await admin.post(ORDERS, { billing: US, line_items: lines(2) }), 422, 'shop_order_invalid_line_item');
    expect((await admin.put(`${ORDERS}/${paid.body.id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stock()) === 3, 15_000, 100);
    expect((await admin.put(`${ORDERS}/${pending.body.id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stock()) === 4, 15_000, 100);
  });

  it("editing an order's lines moves the stock it holds: more taken (checked, 422 past the stock), fewer given back", async () => {
    const crates = await catalogAdmin.simpleProduct({ title: 'Crates', amount: '4.00', stock: 6 });
    const stock = () => stockOf(crates.id);
    for (const status of ['pending_payment', 'on_hold']) {
      const o = (await admin.post(ORDERS, { billing: US, status, line_items: [{ price_id: crates.prices[0].id, quantity: 2 }] })).body;
      expect(await stock()).toBe(4);
      const itemId = o.line_items[0].id;
      expect((await admin.patch(`${ORDERS}/${o.id}/order_item/${itemId}`, { quantity: 5 })).status).toBe(200);
      expect(await stock()).toBe(1);
      expectError(await admin.patch(`${ORDERS}/${o.id}/order_item/${itemId}`, { quantity: 7 }), 422, 'shop_order_invalid_line_item');
      expect(await stock()).toBe(1);
      expect((await admin.get(`${ORDERS}/${o.id}`)).body.line_items[0].quantity).toBe(5);
      const added = await admin.post(`${ORDERS}/${o.id}/order_item`, { price_id: crates.prices[0].id, quantity: 1 });
      expect(added.status).toBe(201);
      expect(await stock()).toBe(0);
      const removed = await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: { item_ids: [itemId] } });
      expect(removed.status).toBe(200);
      expect(await stock()).toBe(5);
      // Cancelling gives back what the order holds now (1), once.
      expect((await admin.put(`${ORDERS}/${o.id}`, { status: 'cancelled' })).status).toBe(200);
      await waitFor(async () => (await stock()) === 6, 15_000, 100);
    }
  });

  it('an order created without lines takes the stock of the lines added later, checked; paying it keeps them', async () => {
    const wallets = await catalogAdmin.simpleProduct({ title: 'Wallets', amount: '3.00', stock: 6 });
    const stock = () => stockOf(wallets.id);
    for (const status of ['pending_payment', 'on_hold']) {
      const empty = (await admin.post(ORDERS, { billing: US, status })).body;
      expectError(await admin.post(`${ORDERS}/${empty.id}/order_item`, { price_id: wallets.prices[0].id, quantity: 500 }), 422, 'shop_order_invalid_line_item');
      expect(await stock()).toBe(6);
      expect((await admin.post(`${ORDERS}/${empty.id}/order_item`, { price_id: wallets.prices[0].id, quantity: 2 })).status).toBe(201);
      expect(await stock()).toBe(4);
      expect((await admin.patch(`${ORDERS}/${empty.id}`, { set_paid: true })).body.paid_status).toBe('paid');
      // Committed on order_paid (or already on hold): the units stay taken, nothing lapses.
      await new Promise((r) => setTimeout(r, 500));
      expect(await stock()).toBe(4);
      expect((await admin.put(`${ORDERS}/${empty.id}`, { status: 'cancelled' })).status).toBe(200);
      await waitFor(async () => (await stock()) === 6, 15_000, 100);
    }
  });

  it('a draft an admin moves on takes its stock then (checked); refused, it stays a draft', async () => {
    const lamps = await catalogAdmin.simpleProduct({ title: 'Lamps', amount: '8.00', stock: 3 });
    const stock = () => stockOf(lamps.id);
    const big = (await admin.post(ORDERS, { billing: US, status: 'checkout_draft', line_items: [{ price_id: lamps.prices[0].id, quantity: 5 }] })).body;
    expect(await stock()).toBe(3);
    expectError(await admin.patch(`${ORDERS}/${big.id}`, { status: 'processing' }), 422, 'shop_order_invalid_line_item');
    expect((await admin.get(`${ORDERS}/${big.id}`)).body.status).toBe('checkout_draft');
    const draft = (await admin.post(ORDERS, { billing: US, status: 'checkout_draft', line_items: [{ price_id: lamps.prices[0].id, quantity: 2 }] })).body;
    expect(await stock()).toBe(3);
    expect((await admin.patch(`${ORDERS}/${draft.id}`, { status: 'on_hold' })).body.status).toBe('on_hold');
    expect(await stock()).toBe(1);
    expect((await admin.put(`${ORDERS}/${draft.id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stock()) === 3, 15_000, 100);
  });

  it('prices lines by price_id or product_id with the catalog and totals them with the quote engine', async () => {
    const res = await admin.post(ORDERS, {
      billing: US,
      shipping: US,
      customer_id: customerId,
      line_items: [
        { price_id: mug.priceId, quantity: 2 },
        { product_id: ebook.productId, quantity: 1 },
      ],
      meta_data: [{ key: 'channel', value: 'phone' }],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${ORDERS}/${res.body.id}`);
    const o = res.body;
    expect(o).toMatchObject({
      status: 'pending_payment',
      paid_status: 'unpaid',
      currency: 'USD',
      customer_id: customerId,
      subtotal: 24.99,
      discount_total: 0,
      shipping_total: 5,
      needs_payment: true,
      item_count: 3,
      meta_data: [{ key: 'channel', value: 'phone' }],
      billing: US,
    });
    expect(o.line_items).toHaveLength(2);
    expect(o.line_items[0]).toMatchObject({ product_id: mug.productId, price_id: mug.priceId, quantity: 2, price: 10, subtotal: 20, total: 20, name: 'Mug' });
    expect(o.line_items[1]).toMatchObject({ product_id: ebook.productId, price_id: ebook.priceId, quantity: 1, price: 4.99 });
    expect(o.shipping_lines[0]).toMatchObject({ method_id: 'flat_rate', total: 5 });
    expect(o.total_tax).toBeCloseTo(3, 2); // 10 % of 24.99 (2.50 rounded per line: 2.00 + 0.50) + 0.50 shipping
    const cents = (n: number) => Math.round(n * 100);
    expect(cents(o.total)).toBe(cents(o.subtotal) - cents(o.discount_total) + cents(o.shipping_total) + cents(o.total_tax));
    expect(o.order_key).toMatch(/^order_/);
    expect(o.date_created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(o.date_paid).toBeNull();
    expect(o._links.self[0].href).toBe(`${stack.url}${ORDERS}/${o.id}`);
  });

  it('creates a draft with status checkout_draft (any status slug): stored as a draft, listed for the admin only by status', async () => {
    const draft = await createOrder({ status: 'checkout_draft' });
    expect(draft.status).toBe('checkout_draft');
    const drafts = await admin.get(`${ORDERS}?status=checkout_draft`);
    expect(drafts.body.map((o: { id: number }) => o.id)).toContain(draft.id);
    // A draft can still be placed by the state machine.
    expect((await admin.patch(`${ORDERS}/${draft.id}`, { status: 'pending_payment' })).body.status).toBe('pending_payment');
  });

  it('creates paid orders with set_paid or a paid status through the state machine', async () => {
    const paid = await createOrder({ set_paid: true });
    expect(paid).toMatchObject({ status: 'processing', paid_status: 'paid', needs_payment: false });
    expect(paid.date_paid).toMatch(/^\d{4}-/);
    const digital = await createOrder({ line_items: [{ price_id: ebook.priceId, quantity: 1 }], set_paid: true });
    expect(digital).toMatchObject({ status: 'completed', paid_status: 'paid' });
    expect(digital.date_completed).toMatch(/^\d{4}-/);
    const held = await createOrder({ status: 'on_hold' });
    expect(held).toMatchObject({ status: 'on_hold', paid_status: 'unpaid' });
  });

  it('rejects bad input with 4xx, never 5xx', async () => {
    expectInvalid(await admin.post(ORDERS, { status: 'shipped' }), 'status');
    expectInvalid(await admin.post(ORDERS, { line_items: [{ price_id: mug.priceId, quantity: -1 }] }), 'quantity');
    expectInvalid(await admin.post(ORDERS, { line_items: [{ price_id: mug.priceId, quantity: 0 }] }), 'quantity');
    expectInvalid(await admin.post(ORDERS, { line_items: [{ price_id: -4 }] }), 'price_id');
    expectInvalid(await admin.post(ORDERS, { billing: { email: 'notanemail' } }), 'billing.email');
    expectInvalid(await admin.patch(`${ORDERS}/${(await createOrder()).id}`, { billing: { email: 'a@b' } }), 'billing.email');
    expectInvalid(await admin.post(ORDERS, { customer_id: 987654 }), 'customer_id');
    // A union of values names them all; the batch path has no GET or DELETE (not an order id).
    const orderby = await admin.get(`${ORDERS}?orderby=foo`);
    expectInvalid(orderby, 'orderby');
    expect(orderby.body.data.params.orderby).toMatch(/^orderby is not one of date, .*id/);
    expectError(await admin.get(`${ORDERS}/batch`), 404, 'rest_no_route');
    expectError(await admin.delete(`${ORDERS}/batch`), 404, 'rest_no_route');
    const described = await admin.request('OPTIONS', `${ORDERS}/batch`);
    expect(described.body.methods).toEqual(expect.arrayContaining(['POST', 'PUT', 'PATCH']));
    expect(described.body.methods).not.toContain('GET');
    expectInvalid(await admin.patch(`${ORDERS}/${(await createOrder()).id}`, { customer_id: 987654 }), 'customer_id');
    const unknownPrice = await admin.post(ORDERS, { line_items: [{ price_id: 987654, quantity: 1 }] });
    expect(unknownPrice.status).toBe(422);
    expect(unknownPrice.body.data.status).toBe(422);
    const unknownProduct = await admin.post(ORDERS, { line_items: [{ product_id: 987654, quantity: 1 }] });
    expectError(unknownProduct, 422, 'shop_order_invalid_product');
    expectError(await admin.post(ORDERS, { id: 5 }), 400, 'shop_rest_order_exists');
    // Amounts beyond what an order can hold exactly (a million of the dearest price), and a name as long as catalog allows.
    const dear = await catalogAdmin.simpleProduct({ title: 'D'.repeat(1000), amount: '999999999999.99', shippingRequired: false });
    expectError(await admin.post(ORDERS, { line_items: [{ price_id: dear.prices[0].id, quantity: 1_000_000 }] }), 422, 'shop_order_invalid_line_item');
    const longName = await admin.post(ORDERS, { billing: US, line_items: [{ price_id: dear.prices[0].id, quantity: 1 }] });
    expect(longName.status).toBe(201);
    expect(longName.body.line_items[0].name).toHaveLength(1000);
    expectInvalid(await admin.post(ORDERS, { currency: 'usd' }), 'currency');
    for (const body of [
      { customer_note: 'a\u0000b' },
      { billing: { first_name: '\u0000' } },
      { meta_data: [{ key: 'k', value: 'v\u0000' }] },
      { line_items: [{ price_id: mug.priceId, meta_data: [{ key: 'k', value: '\u0000' }] }] },
    ]) {
      const res = await admin.post(ORDERS, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
  });

  it('an order created without a currency takes the store currency of the platform settings (one source)', async () => {
    expect((await createOrder({ line_items: [] })).currency).toBe('USD');
    await admin.patch('/platform/v1/settings', { currency: 'EUR' });
    try {
      // Orders drops its cached store settings on customers.site_settings_updated.
      const euro = await waitFor(async () => {
        const o = await createOrder({ line_items: [] });
        return o.currency === 'EUR' ? o : null;
      }, 10_000, 200);
      expect(euro?.currency).toBe('EUR');
    } finally {
      await admin.patch('/platform/v1/settings', { currency: 'USD' });
    }
  });

  it('refuses coupon_lines with 400 naming the field (coupons come from checkout); an empty list passes', async () => {
    const before = (await admin.get(`${ORDERS}?per_page=1`)).headers.get('x-platform-total');
    expect(before).toMatch(/^\d+$/);
    const coupon = { code: 'save10', discount: '1.00' };
    expectInvalid(await admin.post(ORDERS, { billing: US, line_items: [{ price_id: mug.priceId }], coupon_lines: [coupon] }), 'coupon_lines');
    expectInvalid(await admin.post(ORDERS, { coupon_lines: 'save10' }), 'coupon_lines');
    expect((await admin.get(`${ORDERS}?per_page=1`)).headers.get('x-platform-total')).toBe(before);
    const o = await createOrder({ coupon_lines: [] });
    expect(o.coupon_lines).toEqual([]);
    expectInvalid(await admin.patch(`${ORDERS}/${o.id}`, { coupon_lines: [coupon] }), 'coupon_lines');
    const batch = await admin.post(`${ORDERS}/batch`, { create: [{ line_items: [{ price_id: mug.priceId }], coupon_lines: [coupon] }] });
    expect(batch.status).toBe(200);
    expect(batch.body.create[0].error).toMatchObject({ code: 'rest_invalid_param' });
  });
});

describe('GET /order', () => {
  let ids: number[] = [];
  beforeAll(async () => {
    const a = await createOrder({ billing: { ...US, first_name: 'Zelda', last_name: 'Quux', email: 'zelda@example.org' } });
    const b = await createOrder({ customer_id: customerId, line_items: [{ price_id: mug.priceId, quantity: 5 }] });
    const c = await createOrder({ status: 'on_hold' });
    ids = [a.id, b.id, c.id];
  });

  it('filters by status (comma list), customer, search and sorts; pagination headers', async () => {
    const held = await admin.get(`${ORDERS}?status=on_hold&per_page=100`);
    expect(held.status).toBe(200);
    expect(held.body.length).toBeGreaterThan(0);
    expect(held.body.every((o: any) => o.status === 'on_hold')).toBe(true);
    const both = await admin.get(`${ORDERS}?status=on_hold,pending_payment&per_page=100`);
    expect(both.body.every((o: any) => ['on_hold', 'pending_payment'].includes(o.status))).toBe(true);
    expect(both.body.length).toBeGreaterThan(held.body.length);
    const idsOf = (res: { body: Array<{ id: number }> }) => res.body.map((o) => o.id);
    expect(idsOf(await admin.get(`${ORDERS}?status[]=on_hold&status[]=pending_payment&per_page=100`))).toEqual(idsOf(both));
    expect(idsOf(await admin.get(`${ORDERS}?status=on_hold&status=pending_payment&per_page=100`))).toEqual(idsOf(both));
    // With offset (it replaces page), the links step the offset by a page.
    const shifted = await admin.get(`${ORDERS}?orderby=id&order=asc&per_page=2&offset=1`);
    expect(shifted.headers.get('link')).toMatch(/offset=0[^>]*>; rel="prev"/);
    expect(shifted.headers.get('link')).toMatch(/offset=3[^>]*>; rel="next"/);
    const next = await admin.get(new URL(/<([^>]*)>; rel="next"/.exec(shifted.headers.get('link')!)![1]).pathname + new URL(/<([^>]*)>; rel="next"/.exec(shifted.headers.get('link')!)![1]).search);
    expect(idsOf(next)[0]).toBeGreaterThan(idsOf(shifted)[1]);

    const mine = await admin.get(`${ORDERS}?customer=${customerId}&per_page=100`);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((o: any) => o.customer_id === customerId)).toBe(true);
    // customer=0: guests' orders only (not "any customer").
    const guests = await admin.get(`${ORDERS}?customer=0&per_page=100`);
    expect(guests.body.length).toBeGreaterThan(0);
    expect(guests.body.every((o: any) => o.customer_id === 0)).toBe(true);
    const everyone = Number((await admin.get(ORDERS)).headers.get('x-platform-total'));
    expect(Number(guests.headers.get('x-platform-total'))).toBe(guests.body.length);
    expect(Number(guests.headers.get('x-platform-total'))).toBeLessThan(everyone);

    const byName = await admin.get(`${ORDERS}?search=zelda`);
    expect(byName.body.map((o: any) => o.id)).toEqual([ids[0]]);
    const byEmail = await admin.get(`${ORDERS}?search=ZELDA@EXAMPLE.ORG`);
    expect(byEmail.body.map((o: any) => o.id)).toEqual([ids[0]]);
    const byLast = await admin.get(`${ORDERS}?search=quux`);
    expect(byLast.body.map((o: any) => o.id)).toEqual([ids[0]]);
    const byId = await admin.get(`${ORDERS}?search=${ids[1]}`);
    expect(byId.body.map((o: any) => o.id)).toContain(ids[1]);

    const asc = await admin.get(`${ORDERS}?orderby=id&order=asc&per_page=100`);
    const ascIds = asc.body.map((o: any) => o.id);
    expect(ascIds).toEqual([...ascIds].sort((x: number, y: number) => x - y));
    const byTotal = await admin.get(`${ORDERS}?orderby=total&order=desc&per_page=100`);
    const totals = byTotal.body.map((o: any) => o.total);
    expect(totals).toEqual([...totals].sort((x: number, y: number) => y - x));

    const total = Number(asc.headers.get('x-platform-total'));
    const page = await admin.get(`${ORDERS}?per_page=2&page=2&orderby=id&order=asc`);
    expect(page.headers.get('x-platform-total')).toBe(String(total));
    expect(page.headers.get('x-platform-totalpages')).toBe(String(Math.ceil(total / 2)));
    expect(page.headers.get('link')).toContain('rel="prev"');
    expect(page.body.map((o: any) => o.id)).toEqual(ascIds.slice(2, 4));
    const past = await admin.get(`${ORDERS}?per_page=2&page=1000`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-platform-total')).toBe(String(total));
  });

  it('filters by after / before (inclusive dates) and rejects malformed ones with 400', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const all = Number((await admin.get(ORDERS)).headers.get('x-platform-total'));
    expect(Number((await admin.get(`${ORDERS}?after=${today}`)).headers.get('x-platform-total'))).toBe(all);
    expect(Number((await admin.get(`${ORDERS}?before=${today}`)).headers.get('x-platform-total'))).toBe(all);
    expect(Number((await admin.get(`${ORDERS}?after=${today}&before=${today}`)).headers.get('x-platform-total'))).toBe(all);
    expect((await admin.get(`${ORDERS}?before=${yesterday}`)).body).toEqual([]);
    expect((await admin.get(`${ORDERS}?after=${tomorrow}`)).body).toEqual([]);
    expect((await admin.get(`${ORDERS}?after=${today}T00:00:00`)).body.length).toBeGreaterThan(0);
    // An offset that moves the UTC day is still a valid date-time (00:30+05:00 is the previous day, 19:30 UTC).
    expect((await admin.get(`${ORDERS}?after=${encodeURIComponent(`${tomorrow}T00:30:00+05:00`)}`)).status).toBe(200);
    expectInvalid(await admin.get(`${ORDERS}?after=${encodeURIComponent('2026-02-30T10:00:00+05:00')}`), 'after');
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '2026-1-1', '12/01/2026']) {
      expectInvalid(await admin.get(`${ORDERS}?after=${encodeURIComponent(bad)}`), 'after');
      expectInvalid(await admin.get(`${ORDERS}?before=${encodeURIComponent(bad)}`), 'before');
    }
  });

  it('is a validated cache: the same ETag while the page holds (If-None-Match -> 304), the change at once after a write', async () => {
    const url = `${ORDERS}?orderby=id&order=asc&per_page=3&context=edit`;
    const first = await admin.get(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('x-platform-total')).toBeTruthy();
    const again = await admin.get(url);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-platform-total')).toBe(first.headers.get('x-platform-total'));
    expect(again.headers.get('link')).toBe(first.headers.get('link'));
    expect((await admin.get(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Another caller's access is still checked first: a customer gets 403, not the stored page.
    expect((await customer.get(url)).status).toBe(403);

    const target = first.body[1];
    expect((await admin.put(`${ORDERS}/${target.id}`, { customer_note: 'changed after caching' })).status).toBe(200);
    const changed = await admin.get(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body[1].customer_note).toBe('changed after caching');
    expect(changed.body[0]).toEqual(first.body[0]);
    // Meta trimming still applies (rendered per request, whatever the key's spelling).
    const withMeta = await createOrder({ meta_data: [{ key: 'keep', value: '1' }, { key: 'drop', value: '2' }] });
    const newest = `${ORDERS}?orderby=id&order=desc&per_page=1`;
    expect((await admin.get(newest)).body[0].meta_data.map((m: any) => m.key)).toEqual(['keep', 'drop']);
    for (const trim of ['include_meta=keep', 'include%5Fmeta=keep', 'exclude_meta=drop']) {
      const trimmed = await admin.get(`${newest}&${trim}`);
      expect(trimmed.body[0].id).toBe(withMeta.id);
      expect(trimmed.body[0].meta_data.map((m: any) => m.key)).toEqual(['keep']);
    }
  });

  it('rejects unknown statuses, sorts and out-of-range per_page with 400', async () => {
    expectInvalid(await admin.get(`${ORDERS}?status=pending_payment,shipped`), 'status');
    expectInvalid(await admin.get(`${ORDERS}?orderby=name`), 'orderby');
    expectInvalid(await admin.get(`${ORDERS}?per_page=101`), 'per_page');
    expectInvalid(await admin.get(`${ORDERS}?customer=-1`), 'customer');
  });
});

describe('GET/PUT/DELETE /order/<id>', () => {
  it('reads with context (edit adds created_via), 404 when missing', async () => {
    const o = await createOrder();
    const view = await admin.get(`${ORDERS}/${o.id}`);
    expect(view.status).toBe(200);
    expect(view.body.created_via).toBeUndefined();
    const edit = await admin.get(`${ORDERS}/${o.id}?context=edit`);
    expect(edit.body).toMatchObject({ id: o.id, created_via: 'admin', refunded_total: 0 });
    expectError(await admin.get(`${ORDERS}/999999`), 404, 'shop_rest_order_invalid_id');
    expectInvalid(await admin.get(`${ORDERS}/${o.id}?context=full`), 'context');
  });

  it('updates fields; an admin marking a bacs order paid runs the paid transition', async () => {
    const o = await createOrder({ status: 'on_hold' });
    const updated = await admin.put(`${ORDERS}/${o.id}`, {
      customer_note: 'Leave at the door',
      transaction_id: 'bank-123',
      billing: { ...US, phone: '555' },
      meta_data: [{ key: 'gift', value: true }],
    });
    expect(updated.status).toBe(200);
    const trimmed = await admin.get(`${ORDERS}/${o.id}?exclude_meta=gift`);
    expect(trimmed.body.meta_data).toEqual([]);
    expect((await admin.get(`${ORDERS}/${o.id}?include_meta=gift`)).body.meta_data).toHaveLength(1);
    expect(updated.body).toMatchObject({ customer_note: 'Leave at the door', transaction_id: 'bank-123', billing: { phone: '555' }, meta_data: [{ key: 'gift', value: true }] });
    // A partial address changes only the fields sent; an empty string clears one.
    const partial = await admin.patch(`${ORDERS}/${o.id}`, { billing: { phone: '556', company: '' }, shipping: { city: 'Chicago' } });
    expect(partial.status).toBe(200);
    expect(partial.body.billing).toEqual({ ...updated.body.billing, phone: '556', company: '' });
    expect(partial.body.shipping).toEqual({ ...updated.body.shipping, city: 'Chicago' });
    // An address with no field (or only unknown ones) changes nothing.
    const none = await admin.patch(`${ORDERS}/${o.id}`, { billing: {}, shipping: { nickname: 'x' } });
    expect([none.body.billing, none.body.shipping]).toEqual([partial.body.billing, partial.body.shipping]);
    const paid = await admin.patch(`${ORDERS}/${o.id}`, { status: 'processing' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'processing', paid_status: 'paid', needs_payment: false });
    expect(paid.body.date_paid).toMatch(/^\d{4}-/);
    const adminId = (await admin.get('/shop/v1/me')).body.id;
    const history = (await admin.get(`${ORDERS}/${o.id}?context=edit`)).body.status_history;
    expect(history.map((h: any) => [h.from, h.to, h.by_user_id, h.cause])).toEqual([
      ['', 'pending_payment', adminId, 'created'],
      ['pending_payment', 'on_hold', adminId, 'admin'],
      ['on_hold', 'processing', adminId, 'admin'],
    ]);
    expect(history[2].date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await admin.get(`${ORDERS}/${o.id}`)).body.status_history).toBeUndefined();
    const other = await createOrder({ status: 'on_hold' });
    const setPaid = await admin.patch(`${ORDERS}/${other.id}`, { set_paid: true });
    expect(setPaid.body).toMatchObject({ status: 'processing', paid_status: 'paid' });
  });

  it("an order with items keeps its currency: relabelling its amounts is 422 shop_order_currency_mismatch", async () => {
    const o = await createOrder({ status: 'on_hold' });
    const refused = await admin.patch(`${ORDERS}/${o.id}`, { currency: 'JPY' });
    expectError(refused, 422, 'shop_order_currency_mismatch');
    expect((await admin.get(`${ORDERS}/${o.id}`)).body.currency).toBe(o.currency);
    // The same currency again is no change.
    expect((await admin.patch(`${ORDERS}/${o.id}`, { currency: o.currency })).status).toBe(200);
  });

  it('refunds an offline or gateway-less payment by hand (recorded); a gateway no longer installed is 422 and changes nothing', async () => {
    for (const payment_method of ['cod', 'bacs', '']) {
      const o = await createOrder({ set_paid: true, payment_method });
      const refunded = await admin.patch(`${ORDERS}/${o.id}`, { status: 'refunded', reason: 'Returned' });
      expect(refunded.status).toBe(200);
      expect(refunded.body).toMatchObject({ status: 'refunded', paid_status: 'refunded' });
    }
    const o = await createOrder({ set_paid: true, payment_method: 'retired_gateway' });
    expectError(await admin.patch(`${ORDERS}/${o.id}`, { status: 'refunded' }), 422, 'shop_order_refund_unsupported');
    expect((await admin.get(`${ORDERS}/${o.id}`)).body).toMatchObject({ status: 'processing', paid_status: 'paid' });
    expectError(await admin.patch(`${ORDERS}/${(await createOrder()).id}`, { status: 'refunded' }), 409, 'shop_order_invalid_transition');
  });

  it('deletes permanently', async () => {
    const o = await createOrder();
    const res = await admin.delete(`${ORDERS}/${o.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: o.id } });
    expectError(await admin.get(`${ORDERS}/${o.id}`), 404);
    expectError(await admin.delete(`${ORDERS}/${o.id}`), 404);
  });
});

describe('state machine (admin status changes)', () => {
  // What the contract's lifecycle allows an administrator; refunds of paid
  // orders reach the gateway (here bacs: recorded as paid back by hand).
  const EXPECTED: Record<string, Record<string, number>> = {
    checkout_draft: { pending_payment: 200, processing: 200, completed: 200, on_hold: 200, failed: 200, cancelled: 200, refunded: 409 },
    pending_payment: { checkout_draft: 409, processing: 200, completed: 200, on_hold: 200, failed: 200, cancelled: 200, refunded: 409 },
    on_hold: { checkout_draft: 409, pending_payment: 200, processing: 200, completed: 200, failed: 200, cancelled: 200, refunded: 409 },
    failed: { checkout_draft: 409, pending_payment: 200, processing: 200, completed: 200, on_hold: 200, cancelled: 200, refunded: 409 },
    processing: { checkout_draft: 409, pending_payment: 409, completed: 200, on_hold: 200, failed: 409, cancelled: 200, refunded: 200 },
    completed: { checkout_draft: 409, pending_payment: 409, processing: 200, on_hold: 409, failed: 409, cancelled: 409, refunded: 200 },
    cancelled: { checkout_draft: 409, pending_payment: 409, processing: 409, completed: 409, on_hold: 409, failed: 409, refunded: 409 },
  };

  async function orderIn(status: string): Promise<number> {
    if (status === 'checkout_draft') {
      const { order } = await grpc.checkout.createOrder(checkoutOrder({ status: 'checkout_draft' }), systemCaller());
      return order!.id;
    }
    const o = await createOrder();
    if (status !== 'pending_payment') {
      const res = await admin.patch(`${ORDERS}/${o.id}`, { status });
      if (res.status !== 200) throw new Error(`cannot reach ${status}: ${JSON.stringify(res.body)}`);
    }
    return o.id;
  }

  for (const [from, targets] of Object.entries(EXPECTED)) {
    it(`from ${from}`, async () => {
      // Each target on an order of its own, in parallel (the orders are independent).
      await Promise.all(Object.entries(targets).map(async ([to, status]) => {
        const id = await orderIn(from);
        const res = await admin.patch(`${ORDERS}/${id}`, { status: to });
        if (status === 200) {
          expect({ to, status: res.status, body: res.body.status }).toEqual({ to, status: 200, body: to });
          if (['processing', 'completed'].includes(to) && !['processing', 'completed'].includes(from)) {
            expect(res.body.paid_status).toBe('paid');
          }
        } else {
          expect({ to, status: res.status }).toEqual({ to, status });
          expectError(res, status, status === 409 ? 'shop_order_invalid_transition' : 'shop_order_refund_unsupported');
          expect((await admin.get(`${ORDERS}/${id}`)).body.status).toBe(from);
        }
      }));
    });
  }

  it('setting the current status again is not a transition', async () => {
    const id = await orderIn('on_hold');
    const res = await admin.patch(`${ORDERS}/${id}`, { status: 'on_hold' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('on_hold');
  });
});

describe('line items', () => {
  it('adds (201), updates and removes ({item_ids}) lines, re-totalling the order', async () => {
    const o = await createOrder();
    const added = await admin.post(`${ORDERS}/${o.id}/order_item`, { price_id: ebook.priceId, quantity: 2 });
    expect(added.status).toBe(201);
    expect(added.body.line_items).toHaveLength(2);
    expect(added.body.subtotal).toBeCloseTo(29.98, 2);
    const line = added.body.line_items[1];
    const updated = await admin.patch(`${ORDERS}/${o.id}/order_item/${line.id}`, { quantity: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.subtotal).toBeCloseTo(24.99, 2);
    expect(updated.body.item_count).toBe(3);
    const removed = await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: { item_ids: [line.id] } });
    expect(removed.status).toBe(200);
    expect(removed.body.line_items.map((l: any) => l.id)).toEqual([o.line_items[0].id]);
    expect(removed.body.subtotal).toBe(20);
    const cents = (n: number) => Math.round(n * 100);
    const b = removed.body;
    expect(cents(b.total)).toBe(cents(b.subtotal) - cents(b.discount_total) + cents(b.shipping_total) + cents(b.total_tax));
  });

  it("keeps a checkout order's coupon lines through line edits, their discounts following the lines' (to the cent)", async () => {
    // 2 x 10.00 less 4.00 (SAVE: 3.00, EXTRA: 1.00), as a checkout places it.
    const base = checkoutOrder();
    const line = { ...base.lineItems[0], productId: mug.productId, priceId: mug.priceId, discount: '4.00', total: '16.00', tax: '0.00' };
    const { order } = await grpc.checkout.createOrder(
      checkoutOrder({
        lineItems: [line],
        couponCodes: ['save', 'extra'],
        couponLines: [{ code: 'save', discount: '3.00' }, { code: 'extra', discount: '1.00' }],
        subtotal: '20.00',
        discountTotal: '4.00',
        shippingTotal: '0.00',
        totalTax: '0.00',
        taxLines: [],
        shippingLines: [],
        total: '16.00',
      }),
      systemCaller(),
    );
    const id = order!.id;
    const lineId = order!.lineItems[0].id;
    // One unit instead of two: the line's discount halves, and so does each coupon's.
    const halved = await admin.patch(`${ORDERS}/${id}/order_item/${lineId}`, { quantity: 1 });
    expect(halved.status).toBe(200);
    expect(halved.body.discount_total).toBe(2);
    expect(halved.body.coupon_lines.map((c: any) => [c.code, c.discount])).toEqual([['save', 1.5], ['extra', 0.5]]);
    // A new, undiscounted line changes nothing of the coupons.
    const added = await admin.post(`${ORDERS}/${id}/order_item`, { price_id: mug.priceId, quantity: 1 });
    expect(added.status).toBe(201);
    expect(added.body.coupon_lines.map((c: any) => [c.code, c.discount])).toEqual([['save', 1.5], ['extra', 0.5]]);
    expect(added.body.discount_total).toBe(2);
    // The discounted line gone, nothing is discounted and no coupon line is left.
    const removed = await admin.request('DELETE', `${ORDERS}/${id}/order_item`, { json: { item_ids: [lineId] } });
    expect(removed.body.discount_total).toBe(0);
    expect(removed.body.coupon_lines).toEqual([]);
  });

  it('answers order-not-editable (400) once the order is no longer editable', async () => {
    const o = await createOrder({ set_paid: true });
    expectError(await admin.post(`${ORDERS}/${o.id}/order_item`, { price_id: mug.priceId }), 400, 'order-not-editable');
    expectError(await admin.patch(`${ORDERS}/${o.id}/order_item/${o.line_items[0].id}`, { quantity: 3 }), 400, 'order-not-editable');
    expectError(
      await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: { item_ids: [o.line_items[0].id] } }),
      400,
      'order-not-editable',
    );
    const done = await createOrder({ set_paid: true });
    expect((await admin.patch(`${ORDERS}/${done.id}`, { status: 'completed' })).status).toBe(200);
    expectError(await admin.post(`${ORDERS}/${done.id}/order_item`, { price_id: mug.priceId }), 400, 'order-not-editable');
  });

  it('rejects bad line-item input and unknown items', async () => {
    const o = await createOrder();
    expectInvalid(await admin.post(`${ORDERS}/${o.id}/order_item`, { price_id: mug.priceId, quantity: -2 }), 'quantity');
    expectInvalid(await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: { item_ids: [] } }), 'item_ids');
    expectError(await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: {} }), 400, 'rest_missing_callback_param');
    expectError(await admin.request('DELETE', `${ORDERS}/${o.id}/order_item`, { json: { item_ids: [999999] } }), 404, 'shop_rest_order_item_invalid_id');
    expectError(await admin.patch(`${ORDERS}/${o.id}/order_item/999999`, { quantity: 1 }), 404, 'shop_rest_order_item_invalid_id');
    expectInvalid(await admin.patch(`${ORDERS}/${o.id}/order_item/${o.line_items[0].id}`, { quantity: 0 }), 'quantity');
    expect((await admin.post(`${ORDERS}/${o.id}/order_item`, { price_id: 987654 })).status).toBe(422);
    expectError(await admin.post(`${ORDERS}/999999/order_item`, { price_id: mug.priceId }), 404);
  });
});

describe('PUT/PATCH /order/batch', () => {
  it('creates, updates and deletes with per-item results', async () => {
    const a = await createOrder();
    const b = await createOrder();
    const res = await admin.put(`${ORDERS}/batch`, {
      create: [{ billing: US, line_items: [{ price_id: mug.priceId, quantity: 1 }] }, { status: 'nope' }],
      update: [{ id: a.id, customer_note: 'batched' }, { id: 999999, customer_note: 'x' }],
      delete: [b.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.create[0]).toMatchObject({ status: 'pending_payment', subtotal: 10 });
    expect(res.body.create[1].error).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(res.body.update[0]).toMatchObject({ id: a.id, customer_note: 'batched' });
    expect(res.body.update[1]).toMatchObject({ id: 999999, error: { code: 'shop_rest_order_invalid_id', data: { status: 404 } } });
    expect(res.body.delete[0]).toMatchObject({ deleted: true, previous: { id: b.id } });
  });

  it('refuses more than 100 items with 413', async () => {
    const items = Array.from({ length: 101 }, () => ({ line_items: [] }));
    expectError(await admin.patch(`${ORDERS}/batch`, { create: items }), 413, 'rest_request_entity_too_large');
    expectError(await admin.put(`${ORDERS}/batch`, { create: items.slice(0, 50), delete: Array.from({ length: 51 }, (_, i) => i + 1) }), 413, 'rest_request_entity_too_large');
  });
});

describe('GET /order/get_states/<cc>', () => {
  it('returns the country states; unknown country 404, malformed 400', async () => {
    const res = await admin.get(`${ORDERS}/get_states/us`);
    expect(res.status).toBe(200);
    expect(res.body.country_code).toBe('US');
    expect(Object.keys(res.body.states).length).toBeGreaterThan(50);
    expectError(await admin.get(`${ORDERS}/get_states/ZZ`), 404);
    expectError(await admin.get(`${ORDERS}/get_states/USA`), 400);
  });
});
