import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { createCoupon, US_ADDRESS, usShipping } from './support/cart-seed';

let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;

const CARD = (card_number: string) => ({ card_number, exp_month: 12, exp_year: 2035, cvc: '123' });
const GOOD = CARD('4242424242424242');
const DECLINED = CARD('4000000000000002');
const ACTION = CARD('4000000000003220');

beforeAll(async () => {
  stack = await startStack({ PAYMENT_RATE_LIMIT_ENABLED: 'false' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Mug', amount: '10.00', stock: 100 });
  await usShipping(admin, 5, { requires: 'coupon' });
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
}, 60_000);

const price = (p: catalog.Product) => p.prices[0].id;
const stockOf = async (p: catalog.Product) =>
  (await seed.products.getProduct({ id: p.id, context: 'edit', ifNoneMatch: '' }, seed.caller)).product!.stockQuantity;

async function shopper(p: catalog.Product = mug, quantity = 1): Promise<ShopClient> {
  const c = new ShopClient(stack.url);
  const res = await c.post('/shop/v1/cart/items', { price_id: price(p), quantity });
  if (res.status !== 200) throw new Error(`add failed: ${res.status} ${JSON.stringify(res.body)}`);
  return c;
}

const place = (c: ShopClient, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  c.post('/shop/v1/checkout/place', { fields: US_ADDRESS, payment_method: 'cod', ...body }, { headers });

describe('POST /checkout/place', () => {
  it('cod: places and pays the order (charged = displayed), clears the cart, takes the stock', async () => {
    const before = await stockOf(mug);
    const c = await shopper(mug, 2);
    await c.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    const displayed = (await c.get('/shop/v1/checkout/state')).body;
    expect(displayed.available_gateways.map((g: any) => g.id)).toEqual(expect.arrayContaining(['cod', 'bacs', 'test_card']));
    const res = await place(c);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', payment_status: 'paid', paid_status: 'paid', total: displayed.totals.total, currency: 'USD' });
    expect(res.body.order_id).toBeGreaterThan(0);
    expect(res.body.redirect).toContain(`/order-received/${res.body.order_id}/`);
    expect((await c.get('/shop/v1/cart')).body.item_count).toBe(0);
    expect(await stockOf(mug)).toBe(before! - 2);
  });

  it("a paid order's reservation is committed by catalog on order_paid; a bank transfer's (on hold, unpaid) by the checkout itself", async () => {
    const service = (name: string) => stack.services.find((s) => s.name === name)!;
    const reservationOf = async (orderId: number) => {
      const [order] = await service('orders').db.em().execute<{ reservation_id: string }[]>(`select reservation_id from "orders"."orders" where id = ?`, [orderId]);
      const [reservation] = await service('catalog').db.em().execute<{ status: string }[]>(`select status from "catalog"."reservations" where id = ?`, [order.reservation_id]);
      return reservation?.status;
    };
    const cod = await place(await shopper());
    expect(cod.body.paid_status).toBe('paid');
    await waitFor(async () => (await reservationOf(cod.body.order_id)) === 'committed', 15_000, 100);
    const bacs = await place(await shopper(), { payment_method: 'bacs' });
    expect(bacs.body).toMatchObject({ status: 'on_hold', paid_status: 'unpaid', message: 'Awaiting bank transfer.' });
    expect(await reservationOf(bacs.body.order_id)).toBe('committed');
    // With instructions and an account set, the answer's message (the thank-you page) says how to pay.
    await admin.patch('/shop/v1/settings/payment-gateways', { config: { bacs: { instructions: 'Pay within 7 days.', iban: 'DE89 3704 0044 0532 0130 00' } } });
    try {
      const told = await place(await shopper(), { payment_method: 'bacs' });
      expect(told.body.message).toBe('Pay within 7 days.\n\nOur bank details:\nIBAN: DE89 3704 0044 0532 0130 00');
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { bacs: { instructions: '', iban: '' } } });
    }
  });

  it('a cancelled order gives its units back (catalog restocks on order_cancelled)', async () => {
    const before = await stockOf(mug);
    const held = await place(await shopper(mug, 2), { payment_method: 'bacs' });
    expect(held.body.status).toBe('on_hold');
    expect(await stockOf(mug)).toBe(before! - 2);
    expect((await admin.patch(`/shop/v1/order/${held.body.order_id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stockOf(mug)) === before, 15_000, 100);
  });

  it('refuses bad input: 400 without fields, 422 for missing fields, unknown gateway, empty cart', async () => {
    const c = await shopper();
    expectError(await c.post('/shop/v1/checkout/place', { payment_method: 'cod' }), 400);
    expectError(await c.post('/shop/v1/checkout/place', { fields: US_ADDRESS }), 400);
    const missing = await c.post('/shop/v1/checkout/place', { fields: { billing_email: 'x@example.com' }, payment_method: 'cod' });
    expectError(missing, 422, 'shop_checkout_invalid_fields');
    expect(Object.keys(missing.body.data.fields)).toEqual(expect.arrayContaining(['billing_first_name', 'billing_address_1']));
    expect(missing.body.data.fields.terms).toBeUndefined();
    // A country the quote does not know is a field error, not a shape error.
    const unknownCountry = await place(c, { fields: { ...US_ADDRESS, billing_country: 'XX' } });
    expectError(unknownCountry, 422, 'shop_checkout_invalid_fields');
    expect(unknownCountry.body.data.fields).toHaveProperty('billing_country');
    expectError(await place(c, { payment_method: 'nope' }), 422, 'shop_checkout_invalid_gateway');
    // An unknown gateway is named whatever else is wrong with the request.
    expectError(await c.post('/shop/v1/checkout/place', { fields: {}, payment_method: 'nope' }), 422, 'shop_checkout_invalid_gateway');
    expectError(await place(new ShopClient(stack.url)), 422, 'shop_cart_empty');
    // A state the country's list does not hold (GET /checkout/states), or none where the country requires one.
    const badState = await place(c, { fields: { ...US_ADDRESS, billing_state: 'XX' } });
    expectError(badState, 422, 'shop_checkout_invalid_fields');
    expect(badState.body.data.fields.billing_state).toMatch(/not a valid state/);
    const noState = await place(c, { fields: { ...US_ADDRESS, billing_state: '' } });
    expectError(noState, 422, 'shop_checkout_invalid_fields');
    expect(noState.body.data.fields.billing_state).toMatch(/required/);
    expectError(await c.post('/shop/v1/checkout/update', { fields: { billing_country: 'US', billing_state: 'Narnia' } }), 422, 'shop_checkout_invalid_fields');
    // By code or by name; a country without a list takes any text.
    expect((await c.post('/shop/v1/checkout/update', { fields: { billing_state: 'Illinois' } })).status).toBe(200);
    expect((await c.post('/shop/v1/checkout/update', { fields: { billing_state: 'IL' } })).status).toBe(200);
    // Cash on delivery limited to local pickup: not offered, nor taken, for a flat-rate delivery.
    await admin.patch('/shop/v1/settings/payment-gateways', { config: { cod: { enable_for_methods: ['local_pickup'] } } });
    try {
      await c.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
      expect((await c.get('/shop/v1/checkout/state')).body.available_gateways.map((g: { id: string }) => g.id)).not.toContain('cod');
      expectError(await place(c), 422, 'shop_checkout_invalid_gateway');
    } finally {
      await admin.patch('/shop/v1/settings/payment-gateways', { config: { cod: { enable_for_methods: [] } } });
    }
    // A payload the card gateway cannot read is refused before anything is made for it: no order, no stock taken.
    const orders = async () => Number((await admin.get('/shop/v1/order')).headers.get('x-platform-total'));
    const [ordersBefore, stockBefore] = [await orders(), await stockOf(mug)];
    expectError(await place(c, { payment_method: 'test_card', payment_payload: { card_number: 42 } }), 400);
    expectError(await place(c, { payment_method: 'test_card' }), 400);
    expectError(await place(c, { payment_method: 'test_card', payment_payload: { token_id: 999999 } }), 404, 'shop_payment_methods_invalid_token');
    expect(await orders()).toBe(ordersBefore);
    expect(await stockOf(mug)).toBe(stockBefore);
  });

  it('places what the cart shows: an item no longer sold is left out (an order of nothing is shop_cart_empty)', async () => {
    const gone = await seed.simpleProduct({ title: 'Discontinued lamp', amount: '7.00' });
    const c = await shopper(mug, 1);
    expect((await c.post('/shop/v1/cart/items', { price_id: price(gone), quantity: 1 })).status).toBe(200);
    expect((await admin.put(`/shop/v1/shop_product/${gone.id}`, { status: 'draft' })).status).toBe(200);
    // Reads show a catalog change once its event drops the cart's snapshot (asynchronous); place prices fresh.
    await waitFor(async () => (await c.get('/shop/v1/cart')).body.items.length === 1, 15_000, 100);
    const shown = (await c.get('/shop/v1/cart')).body;
    expect(shown.items.map((i: { product_id: number }) => i.product_id)).toEqual([mug.id]);
    const placed = await place(c);
    expect(placed.status).toBe(200);
    expect(Number(placed.body.total)).toBe(15); // the mug (10) and flat-rate shipping to the US (5)
    const order = (await admin.get(`/shop/v1/order/${placed.body.order_id}`)).body;
    expect(order.line_items.map((l: { product_id: number }) => l.product_id)).toEqual([mug.id]);
    expect((await c.get('/shop/v1/cart')).body.items).toEqual([]);

    const only = await shopper(mug, 1);
    const hidden = await seed.simpleProduct({ title: 'Withdrawn', amount: '3.00' });
    const alone = new ShopClient(stack.url);
    expect((await alone.post('/shop/v1/cart/items', { price_id: price(hidden), quantity: 1 })).status).toBe(200);
    expect((await admin.put(`/shop/v1/shop_product/${hidden.id}`, { status: 'draft' })).status).toBe(200);
    expectError(await place(alone), 422, 'shop_cart_empty');
    await waitFor(async () => (await alone.get('/shop/v1/cart')).body.items.length === 0, 15_000, 100);
    expect((await place(only)).status).toBe(200);
  });

  it('a coupon that stopped qualifying is refused once at place, saying why, and taken off: the retry places at the total shown', async () => {
    // The shop raises its minimum spend after the customer applied it: no change of the cart took it off.
    const min = await createCoupon(admin, 'MIN25', { discount_type: 'percent', amount: '10', minimum_amount: '25' });
    const c = await shopper(mug, 3);
    expect((await c.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'min25' })).status).toBe(200);
    expect((await admin.patch(`/shop/v1/shop_coupon/${min.id}`, { meta: { minimum_amount: '100' } })).status).toBe(200);
    const refused = await place(c);
    expectError(refused, 422, 'shop_coupon_invalid');
    expect(refused.body.message).toMatch(/min25/i);
    const shown = (await c.get('/shop/v1/cart')).body;
    expect(shown.applied_coupons).toEqual([]);
    const placed = await place(c);
    expect(placed.status).toBe(200);
    expect(Number(placed.body.total)).toBe(35); // three mugs (30) and flat-rate shipping to the US (5)
  });

  it('a declined card leaves the cart intact and the stock released; the retry with a good card succeeds', async () => {
    const before = await stockOf(mug);
    const c = await shopper(mug, 1);
    const declined = await place(c, { payment_method: 'test_card', payment_payload: DECLINED });
    expectError(declined, 402, 'shop_payment_declined');
    expect(declined.body.data.order_id).toBeGreaterThan(0);
    expect((await c.get('/shop/v1/cart')).body.item_count).toBe(1);
    expect(await stockOf(mug)).toBe(before);
    const paid = await place(c, { payment_method: 'test_card', payment_payload: GOOD });
    expect(paid.status).toBe(200);
    expect(paid.body.order_id).not.toBe(declined.body.data.order_id);
    expect(await stockOf(mug)).toBe(before! - 1);
    // Only the placed order is announced ("order received", "new order"); the declined attempt is not.
    const announced = async (orderId: number) =>
      ((await admin.get('/shop/v1/email-logs?per_page=100&type=admin_new_order')).body as Array<{ subject: string }>).some((e) =>
        e.subject.includes(`#${orderId}`),
      );
    await waitFor(() => announced(paid.body.order_id), 15_000, 100);
    expect(await announced(declined.body.data.order_id)).toBe(false);
  });

  it('requires_action answers the action step as redirect', async () => {
    const c = await shopper();
    const res = await place(c, { payment_method: 'test_card', payment_payload: ACTION });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', requires_action: true, payment_status: 'requires_action' });
    expect(res.body.redirect).toContain('/shop/v1/test-card/authorize?intent_id=');
    expect(res.body.redirect_url).toBe(res.body.redirect);
    // The cart waits for the action step; once the bank step approves, the paid order empties it.
    expect((await c.get('/shop/v1/cart')).body.item_count).toBe(1);
    const intentId = new URL(res.body.redirect).searchParams.get('intent_id');
    const approved = await c.post('/shop/v1/test-card/authorize', { intent_id: intentId, outcome: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ order_id: res.body.order_id, paid_status: 'paid' });
    await waitFor(async () => (await c.get('/shop/v1/cart')).body.item_count === 0, 20_000, 200);
  });

  it('an action step declined at the bank: the same request again places anew (not a replay of the dead step)', async () => {
    const c = await shopper();
    const first = await place(c, { payment_method: 'test_card', payment_payload: ACTION });
    expect(first.body.requires_action).toBe(true);
    const intentId = new URL(first.body.redirect).searchParams.get('intent_id');
    const declined = await c.post('/shop/v1/test-card/authorize', { intent_id: intentId, outcome: 'decline' });
    expect(declined.status).toBe(200);
    expect((await admin.get(`/shop/v1/order/${first.body.order_id}`)).body.status).toBe('failed');
    // order_failed reaches the cart: the checkout that waited fails, the cart (kept) is a new attempt.
    const again = (await waitFor(async () => {
      const res = await place(c, { payment_method: 'test_card', payment_payload: ACTION });
      return res.status === 200 && res.body.order_id !== first.body.order_id ? res : undefined;
    }, 20_000, 200))!;
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.requires_action).toBe(true);
  });

  it('Idempotency-Key: a retry replays the first result (header), a changed body is 422', async () => {
    const c = await shopper();
    const first = await place(c, {}, { 'idempotency-key': 'order-attempt-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await place(c, {}, { 'idempotency-key': 'order-attempt-1' });
    expect(again.status).toBe(200);
    expect(again.body.order_id).toBe(first.body.order_id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(await place(c, { payment_method: 'bacs' }, { 'idempotency-key': 'order-attempt-1' }), 422, 'shop_idempotency_key_reused');
    // An error answer replays too, marked the same way (and only by the header).
    const declinedCart = await shopper();
    const declined = await place(declinedCart, { payment_method: 'test_card', payment_payload: DECLINED }, { 'idempotency-key': 'declined-attempt' });
    expectError(declined, 402, 'shop_payment_declined');
    expect(declined.headers.get('idempotent-replayed')).toBeNull();
    const declinedAgain = await place(declinedCart, { payment_method: 'test_card', payment_payload: DECLINED }, { 'idempotency-key': 'declined-attempt' });
    expectError(declinedAgain, 402, 'shop_payment_declined');
    expect(declinedAgain.body.data.order_id).toBe(declined.body.data.order_id);
    expect(declinedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(declinedAgain.body.data).not.toHaveProperty('idempotent_replayed');
    // Up to 255 printable characters (contract).
    expectError(await place(await shopper(), {}, { 'idempotency-key': 'k'.repeat(256) }), 400, 'rest_invalid_param');
  });

  it('two tabs placing the same cart make one order', async () => {
    const c = await shopper();
    const [a, b] = await Promise.all([place(c), place(c)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.order_id).toBe(b.body.order_id);
    const late = await place(c);
    expect(late.body.order_id).toBe(a.body.order_id);
  });

  it('a cart placed in parallel under a different Idempotency-Key per request makes one order, and the coupon is used once', async () => {
    const once = await createCoupon(admin, 'PARALLEL5', { discount_type: 'percent', amount: '5', usage_limit: 5 });
    const c = await shopper(mug, 1);
    expect((await c.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'parallel5' })).status).toBe(200);
    const stockBefore = await stockOf(mug);
    const tabs = await Promise.all(Array.from({ length: 5 }, (_, i) => place(c, {}, { 'idempotency-key': `tab-${i}-${Date.now()}` })));
    expect(tabs.map((t) => t.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(tabs.map((t) => t.body.order_id)).size).toBe(1);
    expect(await stockOf(mug)).toBe(stockBefore! - 1);
    expect((await admin.get(`/shop/v1/shop_coupon/${once.id}?context=edit`)).body.meta.usage_count).toBe(1);
  });

  it('a failed order paid in parallel is charged once: the other requests are 409', async () => {
    const c = await shopper(mug, 1);
    const declined = await place(c, { payment_method: 'test_card', payment_payload: DECLINED });
    expectError(declined, 402, 'shop_payment_declined');
    const orderId = declined.body.data.order_id;
    const orderKey = (await admin.get(`/shop/v1/order/${orderId}`)).body.order_key;
    const payments = await Promise.all(
      Array.from({ length: 6 }, () => c.post('/shop/v1/checkout/pay-order', { order_id: orderId, order_key: orderKey, payment_method: 'test_card', payment_payload: GOOD })),
    );
    const paid = payments.filter((p) => p.status === 200);
    expect(paid).toHaveLength(1);
    for (const p of payments.filter((r) => r.status !== 200)) {
      expect([p.status, ['shop_checkout_in_progress', 'shop_order_already_paid'].includes(p.body.code)]).toEqual([409, true]);
    }
    const order = (await admin.get(`/shop/v1/order/${orderId}`)).body;
    expect(order).toMatchObject({ paid_status: 'paid', transaction_id: paid[0].body.transaction_id });
  });

  it('two tabs placing the last unit make one order: a twin refused by the stock its twin holds replays that order', async () => {
    const last = await seed.simpleProduct({ title: 'Last one', amount: '4.00', stock: 1 });
    const c = await shopper(last, 1);
    const tabs = await Promise.all(Array.from({ length: 4 }, () => place(c)));
    expect(tabs.map((t) => t.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(tabs.map((t) => t.body.order_id)).size).toBe(1);
    expect(await stockOf(last)).toBe(0);
    // Later, with the cart emptied by that order: still the same order.
    const late = await place(c);
    expect([late.status, late.body.order_id]).toEqual([200, tabs[0].body.order_id]);
  });

  it('20 buyers for the last 5 units: exactly 5 orders, stock 0', async () => {
    const scarce = await seed.simpleProduct({ title: 'Scarce', amount: '3.00', stock: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => shopper(scarce, 1)));
    const results = await Promise.all(buyers.map((c) => place(c)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(5);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectError(r, 422, 'shop_cart_insufficient_stock');
      // One shape whether the shortage shows before reserving or at it (the race).
      expect(r.body.data).toMatchObject({ product_id: Number(scarce.id), available: expect.any(Number) });
    }
    expect(new Set(ok.map((r) => r.body.order_id)).size).toBe(5);
    expect(await stockOf(scarce)).toBe(0);
  });

  it('usage_limit_per_user: once used by this email, applying it again says why (and place would refuse it too)', async () => {
    await createCoupon(admin, 'ONCEEACH', { discount_type: 'percent', amount: '5', usage_limit_per_user: 1 });
    const first = await shopper();
    expect((await first.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'onceeach' })).status).toBe(200);
    expect((await place(first)).status).toBe(200);
    // The same buyer (billing email) with a new cart: refused at apply, before any checkout.
    const again = await shopper();
    expect((await again.post('/shop/v1/checkout/update', { fields: US_ADDRESS })).status).toBe(200);
    const res = await again.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'ONCEEACH' });
    expectError(res, 422, 'shop_coupon_invalid');
    expect(res.body.message).toMatch(/usage limit for you/);
    // Another buyer may still use it.
    const other = await shopper();
    expect((await other.post('/shop/v1/checkout/update', { fields: { ...US_ADDRESS, billing_email: 'grace@example.com' } })).status).toBe(200);
    expect((await other.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'ONCEEACH' })).status).toBe(200);
  });

  it('bogo (buy 2 get 1): the reward unit is free on the line (bogo_free_units, bogo_coupon) and in what is charged', async () => {
    await createCoupon(admin, 'B2G1', { discount_type: 'bogo', bogo_buy_quantity: 2, bogo_get_quantity: 1 });
    const buyer = await shopper(mug, 2);
    const two = await buyer.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'b2g1' });
    expect(two.status).toBe(200);
    // Two units: nothing free yet (the coupon stays applied for when the third is added).
    expect(two.body.snapshot.items[0]).toMatchObject({ quantity: 2, bogo_free_units: 0, bogo_coupon: '', coupon_discount: 0 });
    await buyer.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 4 });
    const cart = (await buyer.get('/shop/v1/cart')).body;
    // 6 units: two groups of buy 2 get 1.
    expect(cart.items[0]).toMatchObject({ quantity: 6, bogo_free_units: 2, bogo_coupon: 'b2g1', coupon_discount: 20 });
    expect(cart.totals).toMatchObject({ subtotal: 60, discount: 20 });
    const placed = await place(buyer);
    expect(placed.status).toBe(200);
    const order = (await admin.get(`/shop/v1/order/${placed.body.order_id}`)).body;
    // 60 - 20 + 5 shipping (no tax configured here).
    expect([Number(order.discount_total), Number(order.total)]).toEqual([20, 45]);
  });

  it('20 concurrent checkouts with a usage_limit 3 coupon: exactly 3 orders use it', async () => {
    await createCoupon(admin, 'THREE', { discount_type: 'percent', amount: '10', usage_limit: 3 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => shopper(mug, 1)));
    for (const c of buyers) expect((await c.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'three' })).status).toBe(200);
    const results = await Promise.all(buyers.map((c) => place(c)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 422, 'shop_coupon_invalid');
    // Usage is now at its limit: applying it again says why.
    const late = await shopper();
    const res = await late.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'THREE' });
    expectError(res, 422, 'shop_coupon_invalid');
    expect(res.body.message).toMatch(/usage limit/);
  });

  it('a coupon use comes back when its order is cancelled, also for an order that took no stock', async () => {
    await createCoupon(admin, 'ONCEONLY', { discount_type: 'fixed_cart', amount: '1', usage_limit: 1 });
    const untracked = await seed.simpleProduct({ title: 'Untracked', amount: '8.00' });
    for (const product of [mug, untracked]) {
      const buyer = await shopper(product, 1);
      expect((await buyer.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'onceonly' })).status).toBe(200);
      const placed = await place(buyer);
      expect(placed.status).toBe(200);
      const next = await shopper(product, 1);
      expectError(await next.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'onceonly' }), 422, 'shop_coupon_invalid');
      expect((await admin.put(`/shop/v1/order/${placed.body.order_id}`, { status: 'cancelled' })).status).toBe(200);
      // catalog releases the use on order_cancelled: the coupon applies again.
      await waitFor(async () => (await next.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'onceonly' })).status === 200, 15_000, 100);
    }
  });
});

describe('POST /checkout/pay-order and /checkout/payment-intent', () => {
  it('pays a failed order by order_key; strangers get 404; unknown gateway 422; a paid order 409', async () => {
    const c = await shopper();
    const declined = await place(c, { payment_method: 'test_card', payment_payload: DECLINED });
    const orderId = declined.body.data.order_id;
    const order = (await admin.get(`/shop/v1/order/${orderId}`)).body;
    const key = order.order_key;
    expect(typeof key).toBe('string');
    const stranger = new ShopClient(stack.url);
    expectError(await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, payment_method: 'cod' }), 404);
    expectError(await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, payment_method: 'cod', order_key: 'wrong' }), 404);
    expectError(await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, payment_method: 'nope', order_key: key }), 422, 'shop_checkout_invalid_gateway');
    expectError(await stranger.post('/shop/v1/checkout/pay-order', { order_id: 'x', payment_method: 'cod' }), 400);
    const paid = await stranger.post(
      '/shop/v1/checkout/pay-order',
      { order_id: orderId, order_key: key, payment_method: 'test_card', payment_payload: GOOD },
      { headers: { 'idempotency-key': 'pay-1' } },
    );
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ result: 'success', order_id: orderId, payment_status: 'paid', redirect_url: '' });
    const replay = await stranger.post(
      '/shop/v1/checkout/pay-order',
      { order_id: orderId, order_key: key, payment_method: 'test_card', payment_payload: GOOD },
      { headers: { 'idempotency-key': 'pay-1' } },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, order_key: key, payment_method: 'cod' }), 409, 'shop_order_already_paid');
    // Nor does a paid order get a payment intent.
    expectError(await stranger.post('/shop/v1/checkout/payment-intent/test_card', { order_id: orderId, order_key: key }), 409, 'shop_order_already_paid');
    // An unpaid order past paying (cancelled) is not payable: its own code, as orders answers.
    const other = await place(await shopper(), { payment_method: 'test_card', payment_payload: DECLINED });
    const cancelled = other.body.data.order_id;
    expect((await admin.put(`/shop/v1/order/${cancelled}`, { status: 'cancelled' })).status).toBe(200);
    const otherKey = (await admin.get(`/shop/v1/order/${cancelled}`)).body.order_key;
    const refused = await stranger.post('/shop/v1/checkout/pay-order', { order_id: cancelled, order_key: otherKey, payment_method: 'cod' });
    expectError(refused, 409, 'shop_order_not_payable');
    expect(refused.body.data.order_status).toBe('cancelled');
    expectError(await stranger.post('/shop/v1/checkout/payment-intent/test_card', { order_id: cancelled, order_key: otherKey }), 409, 'shop_order_not_payable');
  });

  it('paying a failed order takes its stock and coupon use again, checked: a shortage or a spent coupon refuses it, the order stays failed', async () => {
    const lamp = await seed.simpleProduct({ title: 'Lamp', amount: '20.00', stock: 1 });
    await createCoupon(admin, 'SOLO', { discount_type: 'fixed_cart', amount: '1', usage_limit: 1 });
    const first = await shopper(lamp);
    expect((await first.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'solo' })).status).toBe(200);
    const declined = await place(first, { payment_method: 'test_card', payment_payload: DECLINED });
    expectError(declined, 402, 'shop_payment_declined');
    const orderId = declined.body.data.order_id;
    const key = (await admin.get(`/shop/v1/order/${orderId}`)).body.order_key;
    const payAgain = () => first.post('/shop/v1/checkout/pay-order', { order_id: orderId, order_key: key, payment_method: 'cod' });
    expect(await stockOf(lamp)).toBe(1);

    // Someone else buys the last lamp with the coupon its failure gave back.
    const second = await shopper(lamp);
    expect((await second.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'solo' })).status).toBe(200);
    const sold = await place(second);
    expect(sold.status).toBe(200);
    expect(await stockOf(lamp)).toBe(0);
    const short = await payAgain();
    expectError(short, 422, 'shop_cart_insufficient_stock');
    expect(short.body.data).toMatchObject({ product_id: lamp.id, available: 0 });
    expect(await stockOf(lamp)).toBe(0);

    // Restocked, the lamp is there, but the coupon is spent: refused, and the unit taken for it given back.
    expect((await admin.post(`/shop/v1/products/${lamp.id}/stock-adjust`, { action: 'set', quantity: 1 })).status).toBe(200);
    const spent = await payAgain();
    expectError(spent, 422, 'shop_coupon_invalid');
    expect(spent.body.message).toMatch(/usage limit/);
    expect(await stockOf(lamp)).toBe(1);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body.status).toBe('failed');

    // The other order is cancelled (its use comes back): now the failed order is paid, taking the unit and the use.
    expect((await admin.put(`/shop/v1/order/${sold.body.order_id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stockOf(lamp)) === 2, 15_000, 100);
    await waitFor(async () => (await payAgain()).status === 200, 15_000, 200);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body.status).toBe('processing');
    expect(await stockOf(lamp)).toBe(1);
    // Its use counts again: nobody else gets the coupon.
    const third = await shopper(lamp);
    expectError(await third.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'solo' }), 422, 'shop_coupon_invalid');
    // The paid order's reservation is committed (order_paid), not given back by its earlier failure.
    await new Promise((r) => setTimeout(r, 500));
    expect(await stockOf(lamp)).toBe(1);
  });

  it('payment-intent: 422 for gateways without intents; a cart intent snapshots a draft order; order intents need authorization', async () => {
    const c = await shopper();
    await c.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    expectError(await c.post('/shop/v1/checkout/payment-intent/cod', {}), 422, 'shop_checkout_intent_unsupported');
    expectError(await c.post('/shop/v1/checkout/payment-intent/nope', {}), 422);
    // Rule 5 before rule 4: an empty cart does not hide that the gateway has no intents.
    expectError(await new ShopClient(stack.url).post('/shop/v1/checkout/payment-intent/cod', {}), 422, 'shop_checkout_intent_unsupported');
    expectError(await new ShopClient(stack.url).post('/shop/v1/checkout/payment-intent/test_card', {}), 422, 'shop_cart_empty');
    const intent = await c.post('/shop/v1/checkout/payment-intent/test_card', {});
    expect(intent.status).toBe(200);
    expect(intent.body.client_secret).toBeTruthy();
    expect(intent.body.order_id).toBeGreaterThan(0);
    expect((await c.get('/shop/v1/checkout/state')).body.order_id).toBe(intent.body.order_id);
    expectError(await new ShopClient(stack.url).post('/shop/v1/checkout/payment-intent/test_card', { order_id: intent.body.order_id }), 404);
    // The draft is the cart's snapshot, not a placed order: only placing it pays it (checked, priced, stock reserved).
    const orderKey = (await admin.get(`/shop/v1/order/${intent.body.order_id}`)).body.order_key;
    const draftPay = await c.post('/shop/v1/checkout/pay-order', { order_id: intent.body.order_id, order_key: orderKey, payment_method: 'cod' });
    expectError(draftPay, 409, 'shop_order_not_payable');
    expect((await c.get('/shop/v1/checkout/state')).body.order_id).toBe(intent.body.order_id);
  });

  it('a declined placement of a cart with a draft order (payment intent) lets the retry place a new order', async () => {
    const c = await shopper();
    await c.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    const intent = await c.post('/shop/v1/checkout/payment-intent/test_card', {});
    expect(intent.status).toBe(200);
    const declined = await place(c, { payment_method: 'test_card', payment_payload: DECLINED });
    expectError(declined, 402, 'shop_payment_declined');
    expect(declined.body.data.order_id).toBe(intent.body.order_id);
    expect((await c.get('/shop/v1/checkout/state')).body.order_id).toBe(0);
    const paid = await place(c, { payment_method: 'test_card', payment_payload: GOOD });
    expect(paid.status).toBe(200);
    expect(paid.body.order_id).not.toBe(declined.body.data.order_id);
  });

  it('a cart changed while its action step was pending, then declined, still places (the failed draft is let go)', async () => {
    const c = await shopper();
    await c.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    const intent = await c.post('/shop/v1/checkout/payment-intent/test_card', {});
    expect(intent.status).toBe(200);
    const pending = await place(c, { payment_method: 'test_card', payment_payload: ACTION });
    expect(pending.body).toMatchObject({ requires_action: true, order_id: intent.body.order_id });
    const key = (await c.get('/shop/v1/cart')).body.items[0].item_key;
    expect((await c.patch(`/shop/v1/cart/items/${key}`, { quantity: 2 })).status).toBe(200);
    const intentId = new URL(pending.body.redirect).searchParams.get('intent_id');
    expect((await c.post('/shop/v1/test-card/authorize', { intent_id: intentId, outcome: 'decline' })).status).toBe(200);
    const placed = (await waitFor(async () => {
      const res = await place(c, { payment_method: 'test_card', payment_payload: GOOD });
      return res.status === 200 ? res : undefined;
    }, 20_000, 200))!;
    expect(placed.body.order_id).not.toBe(pending.body.order_id);
    expect(placed.body.payment_status).toBe('paid');
  });

  it("pay-order: a refused payload leaves the order payable; a payer by order key cannot use the owner's saved card", async () => {
    const owner = new ShopClient(stack.url);
    const email = `owner-${Date.now()}@example.com`;
    expect((await owner.post('/shop/v1/auth/register', { email, password: 'owner-password-1' })).status).toBeLessThan(300);
    await owner.login(email, 'owner-password-1');
    const saved = await owner.post('/shop/v1/payment-methods', { payment_method: 'test_card', payment_payload: GOOD });
    expect(saved.status).toBe(200);
    const tokenId = saved.body.token.id;
    expect((await owner.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 1 })).status).toBe(200);
    const declined = await place(owner, { payment_method: 'test_card', payment_payload: DECLINED });
    const orderId = declined.body.data.order_id;
    const key = (await admin.get(`/shop/v1/order/${orderId}`)).body.order_key;
    const stranger = new ShopClient(stack.url);
    const bad = await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, order_key: key, payment_method: 'test_card', payment_payload: { card_number: 42 } });
    expectError(bad, 400);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body.status).toBe('failed');
    const foreign = await stranger.post('/shop/v1/checkout/pay-order', { order_id: orderId, order_key: key, payment_method: 'test_card', payment_payload: { token_id: tokenId } });
    expectError(foreign, 404, 'shop_payment_methods_invalid_token');
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body.status).toBe('failed');
    // The owner's own saved card pays it.
    const own = await owner.post('/shop/v1/checkout/pay-order', { order_id: orderId, payment_method: 'test_card', payment_payload: { token_id: tokenId } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ order_id: orderId, payment_status: 'paid' });
  });
});
