import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { createCoupon, taxRate, US_ADDRESS, usShipping } from './support/cart-seed';

let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product; // 10.00, 10 in stock (managed, no backorders)
let book: catalog.Product; // 25.00, stock not managed
let shirt: catalog.Product; // variable
let rates: { flat: string; free: string };

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Mug <b>', amount: '10.00', stock: 10 });
  book = await seed.simpleProduct({ title: 'Book', amount: '25.00' });
  shirt = await seed.variableProduct([{ attributes: { size: 'L' }, sku: 'TEE-L', stockQuantity: 3 }], { title: 'Tee', amount: '15.00', manageStock: true });
  rates = await usShipping(admin, 5, { requires: 'either', min_amount: 100 });
  await taxRate(admin, { rate: '10', name: 'Sales', country: 'US', priority: 1, shipping: true });
  await taxRate(admin, { rate: '5', name: 'Extra', country: 'US', priority: 2, compound: true, shipping: true });
  await createCoupon(admin, 'TENPCT', { discount_type: 'percent', amount: '10' });
  await createCoupon(admin, 'TENOFF', { discount_type: 'fixed_cart', amount: '10' });
  await createCoupon(admin, 'MUG2', { discount_type: 'fixed_product', amount: '2', allowed_product_ids: [mug.id] });
  await createCoupon(admin, 'SHIPFREE', { discount_type: 'fixed_cart', amount: '0', free_shipping: true });
  await createCoupon(admin, 'SOLO', { discount_type: 'percent', amount: '5', individual_use: true });
  await createCoupon(admin, 'OLD', { discount_type: 'percent', amount: '5', expiry_date: '2001-01-01' });
  await createCoupon(admin, 'BIGSPEND', { discount_type: 'percent', amount: '5', minimum_amount: '1000' });
  await createCoupon(admin, 'NOTYOU', { discount_type: 'percent', amount: '5', allowed_customer_ids: [1] });
  await createCoupon(admin, 'USEDUP', { discount_type: 'percent', amount: '5', usage_limit: 1 });
  await createCoupon(admin, 'SOLO50', { discount_type: 'percent', amount: '20', individual_use: true, minimum_amount: '50' });
  await createCoupon(admin, 'MIN50', { discount_type: 'percent', amount: '10', minimum_amount: '50' });
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
}, 60_000);

const price = (p: catalog.Product) => p.prices[0].id;

async function guestWith(lines: Array<[catalog.Product, number]>): Promise<ShopClient> {
  const guest = new ShopClient(stack.url);
  for (const [p, quantity] of lines) {
    const res = await guest.post('/shop/v1/cart/items', { price_id: price(p), quantity });
    if (res.status !== 200) throw new Error(`add failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return guest;
}

describe('cart sessions', () => {
  it('gives a guest a token cookie and header, and the cart follows the token', async () => {
    const guest = new ShopClient(stack.url);
    const res = await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 2 });
    expect(res.status).toBe(200);
    const token = res.headers.get('x-shop-session');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('shop_cart='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(guest.cookie('shop_cart')).toBe(token);
    expect((await guest.get('/shop/v1/cart')).body.item_count).toBe(2);
    // Cross-origin: the same cart by header or session_id, without the cookie.
    const other = new ShopClient(stack.url);
    expect((await other.get('/shop/v1/cart', { headers: { 'x-shop-session': token! } })).body.item_count).toBe(2);
    expect((await other.get(`/shop/v1/cart?session_id=${token}`)).body.item_count).toBe(2);
    // A client naming its cart by header gets no cookie forced on it, so its reads revalidate (ETag, 304).
    const byHeader = await other.get('/shop/v1/cart', { headers: { 'x-shop-session': token! } });
    expect(byHeader.headers.getSetCookie()).toEqual([]);
    expect(byHeader.headers.get('cache-control')).toBe('private, no-cache');
    const etag = byHeader.headers.get('etag')!;
    expect((await other.get('/shop/v1/cart', { headers: { 'x-shop-session': token!, 'if-none-match': etag } })).status).toBe(304);
    // Someone else's (unknown) token is just an empty cart.
    const stranger = await other.get('/shop/v1/cart', { headers: { 'x-shop-session': 'A'.repeat(32) } });
    expect(stranger.status).toBe(200);
    expect(stranger.body.item_count).toBe(0);
    // A token the client made up is never adopted (no session fixation): a write gets a token issued here.
    const madeUp = 'attacker-chosen-token-0123456789';
    const fixed = await new ShopClient(stack.url).post('/shop/v1/cart/items', { price_id: price(mug), quantity: 1 }, { headers: { 'x-shop-session': madeUp } });
    expect(fixed.status).toBe(200);
    const issued = fixed.headers.get('x-shop-session');
    expect(issued).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(issued).not.toBe(madeUp);
    expect((await other.get('/shop/v1/cart', { headers: { 'x-shop-session': madeUp } })).body.item_count).toBe(0);
    expect((await other.get('/shop/v1/cart', { headers: { 'x-shop-session': issued! } })).body.item_count).toBe(1);
  });

  it('merges the guest cart into the customer cart on login (same price and variation: quantities add)', async () => {
    const customer = new ShopClient(stack.url);
    expect((await customer.post('/shop/v1/auth/register', { email: 'merge@example.com', password: 'password-1', auto_login: true })).status).toBe(200);
    if (!customer.nonce) await customer.login('merge@example.com', 'password-1');
    await customer.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 1 });
    const browser = new ShopClient(stack.url);
    await browser.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 2 });
    await browser.post('/shop/v1/cart/items', { price_id: price(book), quantity: 1 });
    expect(browser.cookie('shop_cart')).toBeDefined();
    await browser.login('merge@example.com', 'password-1');
    const res = await browser.get('/shop/v1/cart');
    expect(res.status).toBe(200);
    const byProduct = Object.fromEntries(res.body.items.map((i: any) => [i.product_id, i.quantity]));
    expect(byProduct).toEqual({ [mug.id]: 3, [book.id]: 1 });
    expect(res.body.item_count).toBe(4);
    expect(browser.cookie('shop_cart')).toBeUndefined();
    expect((await customer.get('/shop/v1/cart')).body.item_count).toBe(4);
  });

  it('a merge keeps the customer\'s coupons and never combines another with an individual-use one', async () => {
    await createCoupon(admin, 'SOLO5', { discount_type: 'fixed_cart', amount: '5', individual_use: true });
    const customer = new ShopClient(stack.url);
    expect((await customer.post('/shop/v1/auth/register', { email: 'coupon-merge@example.com', password: 'password-1', auto_login: true })).status).toBe(200);
    if (!customer.nonce) await customer.login('coupon-merge@example.com', 'password-1');
    await customer.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 2 });
    expect((await customer.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'solo5' })).status).toBe(200);
    const browser = new ShopClient(stack.url);
    await browser.post('/shop/v1/cart/items', { price_id: price(book), quantity: 1 });
    expect((await browser.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'tenpct' })).status).toBe(200);
    await browser.login('coupon-merge@example.com', 'password-1');
    const merged = (await browser.get('/shop/v1/cart')).body;
    expect(merged.applied_coupons.map((c: { code: string }) => c.code)).toEqual(['solo5']);
    expect(merged.totals.discount).toBe(5);

    // Coupons applied together before one became individual-use: the first applied gives the discount, the other none.
    const pair = new ShopClient(stack.url);
    await pair.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 2 });
    await createCoupon(admin, 'LATER5', { discount_type: 'fixed_cart', amount: '5' });
    expect((await pair.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'tenoff' })).status).toBe(200);
    const later = (await pair.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'later5' })).body;
    expect(later.snapshot.totals.discount).toBe(15);
    const laterId = (await admin.get('/shop/v1/shop_coupon?search=LATER5')).body[0].id;
    expect((await admin.patch(`/shop/v1/shop_coupon/${laterId}`, { meta: { individual_use: true } })).status).toBe(200);
    await waitFor(async () => (await pair.get('/shop/v1/cart')).body.totals.discount === 10, 10_000);
    expect((await pair.get('/shop/v1/cart')).body.applied_coupons.map((c: { code: string }) => c.code)).toEqual(['tenoff']);
  });

  it('a merge never takes a line past what one line may hold (9999)', async () => {
    const customer = new ShopClient(stack.url);
    expect((await customer.post('/shop/v1/auth/register', { email: 'bulk-merge@example.com', password: 'password-1', auto_login: true })).status).toBe(200);
    if (!customer.nonce) await customer.login('bulk-merge@example.com', 'password-1');
    expect((await customer.post('/shop/v1/cart/items', { price_id: price(book), quantity: 9000 })).status).toBe(200);
    const browser = new ShopClient(stack.url);
    expect((await browser.post('/shop/v1/cart/items', { price_id: price(book), quantity: 5000 })).status).toBe(200);
    await browser.login('bulk-merge@example.com', 'password-1');
    const res = await browser.get('/shop/v1/cart');
    expect(res.status).toBe(200);
    expect(res.body.items.find((i: { product_id: number }) => i.product_id === book.id).quantity).toBe(9999);
  });

  it('turns unknown publishable keys away (the embed addon decides)', async () => {
    const guest = new ShopClient(stack.url);
    expectError(await guest.get('/shop/v1/cart?pk=pk_x'), 401, 'shop_pk_invalid');
    const doubled = await guest.get('//shop/v1/cart?pk=pk_x');
    expect(doubled.status === 404 || doubled.body.code === 'shop_pk_invalid').toBe(true);
    // The mini cart is plainly public (spec 5: keys are for cart and checkout): a key there is not looked at.
    expect((await guest.get('/shop/v1/mini-cart/current', { headers: { 'x-shop-pk': 'pk_x' } })).status).toBe(200);
    expectError(await guest.get('/shop/v1/checkout/state', { headers: { 'x-shop-embed-key': 'pk_x' } }), 401, 'shop_pk_invalid');
  });
});

describe('/cart routes', () => {
  it('GET /cart of a new guest is an empty snapshot in the store currency', async () => {
    const res = await new ShopClient(stack.url).get('/shop/v1/cart');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [],
      totals: { subtotal: 0, shipping: 0, tax: 0, discount: 0, total: 0 },
      currency: 'USD',
      needs_shipping: false,
      needs_payment: false,
      applied_coupons: [],
      item_count: 0,
    });
  });

  it('POST /cart/items adds a line with the spec shape; the same price adds quantities; keys are stable', async () => {
    const guest = new ShopClient(stack.url);
    const first = await guest.post('/shop/v1/cart/items', { price_id: price(mug) });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      item: {
        item_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        product_id: mug.id,
        price_id: price(mug),
        name: 'Mug <b>',
        image: '',
        quantity: 1,
        price: 10,
        subtotal: 10,
        variation_id: 0,
        coupon_discount: 0,
        bogo_free_units: 0,
        bogo_coupon: '',
      },
      product_id: mug.id,
      price_id: price(mug),
      snapshot: expect.objectContaining({ item_count: 1, currency: 'USD', needs_shipping: true, needs_payment: true }),
    });
    const again = await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 2, product_id: mug.id });
    expect(again.body.item).toMatchObject({ item_key: first.body.item.item_key, quantity: 3, subtotal: 30 });
    expect(again.body.snapshot.items).toHaveLength(1);
    const other = await new ShopClient(stack.url).post('/shop/v1/cart/items', { price_id: price(mug) });
    expect(other.body.item.item_key).toBe(first.body.item.item_key);
  });

  it('variable products need a variation (422) and take one', async () => {
    const guest = new ShopClient(stack.url);
    expectError(await guest.post('/shop/v1/cart/items', { price_id: price(shirt) }), 422, 'shop_cart_variation_required');
    const res = await guest.post('/shop/v1/cart/items', { price_id: price(shirt), variation_id: shirt.variations[0].id });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ variation_id: shirt.variations[0].id, price: 15 });
  });

  it('refuses bad input with 4xx, never 5xx', async () => {
    const guest = new ShopClient(stack.url);
    expectError(await guest.post('/shop/v1/cart/items', { price_id: 99999999 }), 422, 'shop_cart_invalid_price');
    expectError(await guest.post('/shop/v1/cart/items', { price_id: 0 }), 400, 'rest_invalid_param');
    expectError(await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: -1 }), 400, 'rest_invalid_param');
    expectError(await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 1e9 }), 400, 'rest_invalid_param');
    expectError(await guest.post('/shop/v1/cart/items', { price_id: 'abc' }), 400);
    expectError(await guest.post('/shop/v1/cart/items', {}), 400);
    expectError(await guest.post('/shop/v1/cart/items', { price_id: price(mug), product_id: book.id }), 422, 'shop_cart_invalid_price');
    expectError(await guest.post('/shop/v1/cart/items', { price_id: price(shirt), variation_id: 99999 }), 422);
    expectError(await guest.patch('/shop/v1/cart/items/nope', { quantity: 1 }), 404, 'shop_cart_item_not_found');
    expectError(await guest.delete('/shop/v1/cart/items/0123456789abcdef0123456789abcdef'), 404, 'shop_cart_item_not_found');
    expectError(await guest.patch('/shop/v1/cart/items/abc', {}), 400);
    // Any key that is not a line's is 404 (spec 4.1 rule 3), up to the router's parameter limit (500).
    expectError(await guest.delete(`/shop/v1/cart/items/${'a'.repeat(100)}`), 404, 'shop_cart_item_not_found');
    expectError(await guest.delete(`/shop/v1/cart/items/${'b'.repeat(300)}`), 404, 'shop_cart_item_not_found');
    expectError(await guest.patch(`/shop/v1/cart/items/${'a'.repeat(100)}`, { quantity: 1 }), 404, 'shop_cart_item_not_found');
  });

  it('DELETE of a line whose product is no longer sold removes it and answers the line as stored', async () => {
    const gone = await seed.simpleProduct({ title: 'Discontinued', amount: '7.00' });
    const guest = await guestWith([[gone, 2], [book, 1]]);
    const key = (await guest.get('/shop/v1/cart')).body.items.find((i: { product_id: number }) => i.product_id === gone.id).item_key;
    expect((await admin.put(`/shop/v1/shop_product/${gone.id}`, { status: 'draft' })).status).toBe(200);
    const removed = await guest.delete(`/shop/v1/cart/items/${key}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: true, item_key: key, item: { item_key: key, product_id: gone.id, quantity: 2 }, product_id: gone.id });
    expect(removed.body.snapshot.items.map((i: { product_id: number }) => i.product_id)).toEqual([book.id]);
  });

  it('a cart of more lines than one catalog lookup holds (100) reads and prices', async () => {
    // Ten at a time: 101 creations at once can outlast a call's deadline on a busy machine.
    const products: catalog.Product[] = [];
    for (let i = 0; i < 101; i += 10) {
      products.push(...(await Promise.all(Array.from({ length: Math.min(10, 101 - i) }, (_, j) => seed.simpleProduct({ title: `Bulk ${i + j}`, amount: '1.00' })))));
    }
    const guest = await guestWith(products.map((p) => [p, 1] as [catalog.Product, number]));
    const res = await guest.get('/shop/v1/cart');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(101);
    expect(res.body.item_count).toBe(101);
  }, 60_000);

  it('a quantity above managed stock is a clear 422', async () => {
    const guest = new ShopClient(stack.url);
    const res = await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 11 });
    expectError(res, 422, 'shop_cart_insufficient_stock');
    expect(res.body.message).toContain('10');
    const ok = await guest.post('/shop/v1/cart/items', { price_id: price(mug), quantity: 10 });
    expect(ok.status).toBe(200);
    expectError(await guest.patch(`/shop/v1/cart/items/${ok.body.item.item_key}`, { quantity: 11 }), 422, 'shop_cart_insufficient_stock');
  });

  it('PATCH changes the quantity, 0 removes; DELETE removes with the old line; DELETE /cart clears', async () => {
    const guest = await guestWith([[mug, 1], [book, 1]]);
    const key = (await guest.get('/shop/v1/cart')).body.items[0].item_key;
    const patched = await guest.patch(`/shop/v1/cart/items/${key}`, { quantity: 4 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ item: { item_key: key, quantity: 4, subtotal: 40 }, product_id: mug.id, price_id: price(mug), message: expect.any(String) });
    expect(patched.body.snapshot.item_count).toBe(5);
    const zero = await guest.patch(`/shop/v1/cart/items/${key}`, { quantity: 0 });
    expect(zero.body.item).toBeNull();
    expect(zero.body.snapshot.item_count).toBe(1);
    const bookKey = zero.body.snapshot.items[0].item_key;
    const removed = await guest.delete(`/shop/v1/cart/items/${bookKey}`);
    expect(removed.body).toMatchObject({ removed: true, item_key: bookKey, item: { product_id: book.id, quantity: 1 }, product_id: book.id, price_id: price(book), message: expect.any(String) });
    expect(removed.body.snapshot.items).toEqual([]);
    await guest.post('/shop/v1/cart/items', { price_id: price(book) });
    const cleared = await guest.delete('/shop/v1/cart');
    expect(cleared.body).toMatchObject({ cleared: true, snapshot: { items: [], item_count: 0 } });
    await guest.post('/shop/v1/cart/items', { price_id: price(book) });
    expect((await guest.delete('/shop/v1/cart/items')).body).toMatchObject({ cleared: true, snapshot: { item_count: 0 } });
    // An empty item key is an unknown line, not "empty the cart".
    await guest.post('/shop/v1/cart/items', { price_id: price(book) });
    expectError(await guest.delete('/shop/v1/cart/items/'), 404, 'shop_cart_item_not_found');
    expect((await guest.get('/shop/v1/cart')).body.item_count).toBe(1);
  });

  it('direct checkout clears the cart first (lines and coupons) and answers the checkout page URL as redirect', async () => {
    const guest = await guestWith([[book, 2]]);
    expect((await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENPCT' })).status).toBe(200);
    const res = await guest.post('/shop/v1/cart/items/direct-checkout', { price_id: price(mug), quantity: 1 });
    expect(res.body.snapshot.applied_coupons).toEqual([]);
    expect(res.status).toBe(200);
    expect(res.body.redirect).toMatch(/\/checkout\/$/);
    expect(res.body.snapshot.items.map((i: any) => i.product_id)).toEqual([mug.id]);
    expect(res.body).toMatchObject({ product_id: mug.id, price_id: price(mug), item: { quantity: 1 } });
  });
});

/** The worked examples' cart: 2 x 10.00 + 1 x 25.00 to the US address, with `code` applied. */
async function checkoutCart(code?: string) {
  const guest = await guestWith([[mug, 2], [book, 1]]);
  expect((await guest.post('/shop/v1/checkout/update', { fields: US_ADDRESS })).status).toBe(200);
  if (code) expect((await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: code })).status).toBe(200);
  return guest;
}

describe('worked examples (to the cent): 2 x 10.00 + 1 x 25.00, US, flat 5.00, 10 % + 5 % compound tax on items and shipping', () => {
  it('no coupon: tax 2.00+1.10+2.50+1.38 on items, 0.50+0.28 on shipping = 7.76; total 57.76', async () => {
    const res = await (await checkoutCart()).get('/shop/v1/cart');
    expect(res.body.totals).toEqual({ subtotal: 45, shipping: 5, tax: 7.76, discount: 0, total: 57.76 });
  });

  it('percent 10 %: discount 4.50, tax 7.06, total 52.56', async () => {
    const res = await (await checkoutCart('tenpct')).get('/shop/v1/cart');
    expect(res.body.totals).toEqual({ subtotal: 45, shipping: 5, tax: 7.06, discount: 4.5, total: 52.56 });
    expect(res.body.applied_coupons).toEqual([{ code: 'tenpct', discount: 4.5 }]);
    expect(res.body.items.map((i: any) => i.coupon_discount)).toEqual([2, 2.5]);
  });

  it('fixed_cart 10.00 spread 4.44 / 5.56: tax 6.21, total 46.21', async () => {
    const res = await (await checkoutCart('TenOff')).get('/shop/v1/cart');
    expect(res.body.totals).toEqual({ subtotal: 45, shipping: 5, tax: 6.21, discount: 10, total: 46.21 });
    expect(res.body.items.map((i: any) => i.coupon_discount)).toEqual([4.44, 5.56]);
  });

  it('fixed_product 2.00 per mug (restricted to mugs): discount 4.00', async () => {
    const res = await (await checkoutCart('MUG2')).get('/shop/v1/cart');
    // Mugs 16.00: 1.60 + (17.60 x 5 % = 0.88); book 2.50 + 1.38; shipping 0.50 + 0.28 = 7.14.
    expect(res.body.totals).toEqual({ subtotal: 45, shipping: 5, tax: 7.14, discount: 4, total: 53.14 });
  });

  it('free shipping by coupon: the free rate appears and, chosen, shipping and its tax are 0', async () => {
    const guest = await checkoutCart('SHIPFREE');
    const state = await guest.get('/shop/v1/checkout/state');
    expect(state.body.shipping_rates.map((r: any) => r.id)).toEqual([rates.flat, rates.free]);
    const update = await guest.post('/shop/v1/checkout/update', { fields: { shipping_method: rates.free } });
    expect(update.status).toBe(200);
    expect(update.body.refresh).toBe(true);
    expect(update.body.chosen_shipping_method).toBe(rates.free);
    expect(update.body.totals).toEqual({ subtotal: 45, shipping: 0, tax: 6.98, discount: 0, total: 51.98 });
    const again = await guest.post('/shop/v1/checkout/update', { fields: { shipping_method: rates.free } });
    expect(again.body.refresh).toBe(false);
  });

  it('free shipping by minimum amount (100.00)', async () => {
    const guest = await guestWith([[book, 4]]);
    await guest.post('/shop/v1/checkout/update', { fields: { ...US_ADDRESS, shipping_method: rates.free } });
    const res = await guest.get('/shop/v1/checkout/state');
    expect(res.body.shipping_rates.map((r: any) => r.id)).toContain(rates.free);
    expect(res.body.chosen_shipping_method).toBe(rates.free);
    // 100.00: 10.00 + 5.50 tax.
    expect(res.body.totals).toEqual({ subtotal: 100, shipping: 0, tax: 15.5, discount: 0, total: 115.5 });
    const below = await guestWith([[book, 3]]);
    await below.post('/shop/v1/checkout/update', { fields: { ...US_ADDRESS, shipping_method: rates.free } });
    const state = await below.get('/shop/v1/checkout/state');
    expect(state.body.shipping_rates.map((r: any) => r.id)).toEqual([rates.flat]);
    expect(state.body.chosen_shipping_method).toBe(rates.flat);
    // A method no rate offers is not kept as the customer's field (it would disagree with the chosen rate).
    expect(state.body.fields.shipping_method ?? '').toBe('');
  });
});

describe('coupons: /checkout/coupon/apply and /remove', () => {
  it('applies case-insensitively, answers {applied, code, snapshot}; remove answers {removed, code, snapshot}', async () => {
    const guest = await guestWith([[book, 1]]);
    const res = await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: ' TenPct ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: true, code: 'tenpct', snapshot: { applied_coupons: [{ code: 'tenpct', discount: 2.5 }] } });
    expectError(await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENPCT' }), 422, 'shop_coupon_invalid');
    const removed = await guest.post('/shop/v1/checkout/coupon/remove', { coupon_code: 'TENPCT' });
    expect(removed.body).toMatchObject({ removed: true, code: 'tenpct', snapshot: { applied_coupons: [] } });
  });

  it('refuses with the contract codes and a message saying why', async () => {
    const guest = await guestWith([[book, 1]]);
    const apply = (coupon_code: string) => guest.post('/shop/v1/checkout/coupon/apply', { coupon_code });
    expectError(await apply(''), 422, 'shop_coupon_empty');
    expectError(await apply('   '), 422, 'shop_coupon_empty');
    expectError(await apply('x'.repeat(300)), 422, 'shop_coupon_invalid');
    const cases: Array<[string, RegExp]> = [
      ['nosuch', /does not exist/],
      ['OLD', /expired/],
      ['BIGSPEND', /minimum spend/],
      ['NOTYOU', /not available to you/],
      ['MUG2', /does not apply/],
    ];
    for (const [code, why] of cases) {
      const res = await apply(code);
      expectError(res, 422, 'shop_coupon_invalid');
      expect(res.body.message).toMatch(why);
    }
    expectError(await guest.post('/shop/v1/checkout/coupon/apply', {}), 400);
    expectError(await guest.post('/shop/v1/checkout/coupon/remove', { coupon_code: '' }), 422, 'shop_coupon_empty');
    expectError(await new ShopClient(stack.url).post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENPCT' }), 422, 'shop_coupon_invalid');
  });

  it('a coupon that stops qualifying comes off the cart: it neither blocks another nor comes back unseen', async () => {
    const guest = await guestWith([[book, 2]]);
    const key = (await guest.get('/shop/v1/cart')).body.items[0].item_key;
    expect((await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'SOLO50' })).status).toBe(200);
    // Under its minimum spend: off the snapshot and off the cart.
    const lowered = await guest.patch(`/shop/v1/cart/items/${key}`, { quantity: 1 });
    expect(lowered.body.snapshot.applied_coupons).toEqual([]);
    const other = await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENPCT' });
    expect(other.status).toBe(200);
    expect(other.body.snapshot.applied_coupons).toEqual([{ code: 'tenpct', discount: 2.5 }]);
    // Back over the minimum, it stays off (the customer applies it again to use it).
    const raised = await guest.patch(`/shop/v1/cart/items/${key}`, { quantity: 2 });
    expect(raised.body.snapshot.applied_coupons.map((c: any) => c.code)).toEqual(['tenpct']);
    expect((await guest.post('/shop/v1/checkout/coupon/remove', { coupon_code: 'SOLO50' })).body.code).toBe('shop_coupon_invalid');
    // Applying it again under its minimum says why (not "already applied").
    const again = await guestWith([[book, 2]]);
    await again.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'MIN50' });
    const againKey = (await again.get('/shop/v1/cart')).body.items[0].item_key;
    await again.delete(`/shop/v1/cart/items/${againKey}`);
    await again.post('/shop/v1/cart/items', { price_id: price(book), quantity: 1 });
    const refused = await again.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'MIN50' });
    expectError(refused, 422, 'shop_coupon_invalid');
    expect(refused.body.message).toMatch(/minimum spend/);
  });

  it('individual_use: replaces other coupons and refuses to be combined', async () => {
    const guest = await guestWith([[book, 1]]);
    await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENPCT' });
    const solo = await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'SOLO' });
    expect(solo.body.snapshot.applied_coupons.map((c: any) => c.code)).toEqual(['solo']);
    const res = await guest.post('/shop/v1/checkout/coupon/apply', { coupon_code: 'TENOFF' });
    expectError(res, 422, 'shop_coupon_invalid');
    expect(res.body.message).toMatch(/cannot be combined/);
  });
});

describe('checkout state, update, states', () => {
  it('GET /checkout/state has every field of spec 2.2', async () => {
    const guest = await guestWith([[mug, 1]]);
    const res = await guest.get('/shop/v1/checkout/state');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining([
        'cart', 'totals', 'available_gateways', 'order_id', 'declared_items', 'selection', 'checkout_fields', 'branding',
        'applied_coupons', 'shipping_rates', 'chosen_shipping_method', 'place_order_label', 'consent_checkboxes',
      ]),
    );
    expect(res.body.cart).toMatchObject({ needs_shipping: true, needs_payment: true, currency: 'USD' });
    expect(res.body.order_id).toBe(0);
    expect(res.body.place_order_label).toBe('Place order');
    expect(res.body.branding).toEqual({ logo_url: expect.any(String), store_name: expect.any(String), site_url: expect.any(String) });
    expect(res.body.checkout_fields.map((f: any) => f.key)).toEqual(expect.arrayContaining(['billing_email', 'billing_country', 'shipping_country']));
    // Not required by default (CHECKOUT_TERMS_REQUIRED): no placement in these tests sends it.
    expect(res.body.consent_checkboxes[0]).toMatchObject({ id: 'terms', required: false });
    expect(Array.isArray(res.body.available_gateways)).toBe(true);
  });

  it('update: 422 for bad field values, 400 without fields', async () => {
    const guest = await guestWith([[mug, 1]]);
    const bad = await guest.post('/shop/v1/checkout/update', { fields: { billing_email: 'not-an-email' } });
    expectError(bad, 422, 'shop_checkout_invalid_fields');
    expect(bad.body.data.fields).toHaveProperty('billing_email');
    // A country the quote does not know: 422 on its field, and never stored (the cart still reads).
    const country = await guest.post('/shop/v1/checkout/update', { fields: { billing_country: 'XX' } });
    expectError(country, 422, 'shop_checkout_invalid_fields');
    expect(country.body.data.fields).toHaveProperty('billing_country');
    expect((await guest.get('/shop/v1/cart')).status).toBe(200);
    expect((await guest.get('/shop/v1/checkout/state')).body.fields.billing_country).toBeUndefined();
    // An Idempotency-Key no route here uses, even one gRPC metadata cannot carry, changes nothing.
    expect((await guest.get('/shop/v1/cart', { headers: { 'idempotency-key': 'tab\there' } })).status).toBe(200);
    expectError(await guest.post('/shop/v1/checkout/update', {}), 400);
    expectError(await guest.post('/shop/v1/checkout/update', { fields: 'x' }), 400);
    const nothingMoved = await guest.post('/shop/v1/checkout/update', { fields: { order_comments: 'Leave at the door' } });
    expect(nothingMoved.body.refresh).toBe(false);
    const moved = await guest.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    expect(moved.body.refresh).toBe(true);
    expect(moved.body.fragments).toHaveProperty('shop-order-summary');
    // Pushes add up, but a cart keeps at most 100 fields: the push past that is 400, and clearing makes room.
    const many = (from: number) => Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`extra_${from + i}`, 'x']));
    expect((await guest.post('/shop/v1/checkout/update', { fields: many(0) })).status).toBe(200);
    expectError(await guest.post('/shop/v1/checkout/update', { fields: many(60) }), 400, 'rest_invalid_param');
    const cleared = Object.fromEntries(Object.keys(many(0)).map((k) => [k, '']));
    expect((await guest.post('/shop/v1/checkout/update', { fields: cleared })).status).toBe(200);
    expect((await guest.post('/shop/v1/checkout/update', { fields: many(60) })).status).toBe(200);
  });

  it('GET /checkout/states answers the country\'s state field', async () => {
    const res = await new ShopClient(stack.url).get('/shop/v1/checkout/states?country_code=us');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ country_code: 'US', required: true });
    expect(Object.keys(res.body.states).length).toBeGreaterThan(50);
  });
});

describe('fragments and mini cart (same snapshot)', () => {
  it('refresh-fragments escapes every value; the referer picks cart or checkout mode', async () => {
    const guest = await guestWith([[mug, 1]]);
    await guest.post('/shop/v1/checkout/update', { fields: US_ADDRESS });
    const cartMode = await guest.get('/shop/v1/cart/refresh-fragments', { headers: { referer: 'http://127.0.0.1:8080/cart/' } });
    expect(cartMode.status).toBe(200);
    const html = Object.values(cartMode.body).join('');
    expect(html).toContain('Mug &#60;b&#62;');
    expect(html).not.toContain('<b>');
    expect(cartMode.body['shop-shipping-methods']).toContain('data-mode="cart"');
    expect(cartMode.body['shop-shipping-methods']).not.toContain('type="radio"');
    const checkoutMode = await guest.get('/shop/v1/cart/refresh-fragments', { headers: { referer: 'http://127.0.0.1:8080/checkout/' } });
    expect(checkoutMode.body['shop-shipping-methods']).toContain('type="radio"');
    expect(Object.keys(checkoutMode.body)).toEqual(expect.arrayContaining(['shop-order-summary', 'shop-cart-subtotals', 'shop-checkout-payment']));
  });

  it('mini-cart/current: totals and items from the snapshot; render=false omits cart_items_html', async () => {
    const guest = await guestWith([[mug, 2]]);
    const res = await guest.get('/shop/v1/mini-cart/current');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_empty: false, subtotal: 20, cart_items_count: 2, cart_url: expect.stringMatching(/\/cart\/$/), checkout_url: expect.stringMatching(/\/checkout\/$/) });
    expect(res.body.cart_items).toEqual((await guest.get('/shop/v1/cart')).body.items);
    expect(res.body.cart_items_html).toContain('Mug &#60;b&#62;');
    const bare = await guest.get('/shop/v1/mini-cart/current?render=false');
    expect(bare.body).not.toHaveProperty('cart_items_html');
    // 0 and 1 are booleans too, and any letter case, as on the host platform.
    expect((await guest.get('/shop/v1/mini-cart/current?render=0')).body).not.toHaveProperty('cart_items_html');
    expect((await guest.get('/shop/v1/mini-cart/current?render=1')).body.cart_items_html).toContain('Mug &#60;b&#62;');
    expect((await guest.get('/shop/v1/mini-cart/current?render=FALSE')).body).not.toHaveProperty('cart_items_html');
    expect((await guest.get('/shop/v1/mini-cart/current?render=True')).body.cart_items_html).toContain('Mug');
    expect((await new ShopClient(stack.url).get('/shop/v1/mini-cart/current')).body).toMatchObject({ is_empty: true, cart_items_count: 0 });
  });
});

// Last in the file: it flips a store-wide setting, so nothing else prices a cart while it is on.
describe('prices that include tax', () => {
  it('prices that include tax: the same cart costs 45.00 + shipping; subtotal and discount are net (the subtotal the same with or without a coupon), so total = subtotal - discount + shipping + tax', async () => {
    expect((await admin.patch('/platform/v1/settings', { prices_include_tax: true })).status).toBe(200);
    try {
      const guest = await checkoutCart('tenpct');
      // The setting reaches the cart's pricing through an event.
      const totals = await waitFor(async () => {
        const t = (await guest.get('/shop/v1/cart')).body.totals;
        return t.tax < 7 ? t : null;
      }, 60_000);
      // Items 45.00 gross, 10 % off = 40.50 gross, containing 10 % then 5 % compound tax: 40.50 - 40.50 / 1.155 = 5.44 (3.51 + 1.93);
      // shipping 5.00 + 0.78 tax on top. Subtotal and discount are net of tax, as the host platform reports them: the
      // 45.00 before the discount holds 6.03 (per line: mugs 20.00 -> 1.73 + 0.95, book 25.00 -> 2.16 + 1.19), so the
      // subtotal is 38.97 whatever coupon applies; the discount is what it took off net: 38.97 - (40.50 - 5.44) = 3.91.
      expect(totals).toEqual({ subtotal: 38.97, shipping: 5, tax: 6.22, discount: 3.91, total: 46.28 });
      const without = await checkoutCart();
      await waitFor(async () => (await without.get('/shop/v1/cart')).body.totals.subtotal === 38.97, 60_000);
      expect(Math.round((totals.subtotal - totals.discount + totals.shipping + totals.tax) * 100)).toBe(Math.round(totals.total * 100));
    } finally {
      expect((await admin.patch('/platform/v1/settings', { prices_include_tax: false })).status).toBe(200);
      // Back to exclusive prices before the next example prices its cart.
      const probe = await checkoutCart();
      await waitFor(async () => (await probe.get('/shop/v1/cart')).body.totals.tax === 7.76, 60_000);
    }
  });
});
