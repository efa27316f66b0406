import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

const COUPONS = '/shop/v1/shop_coupon';

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let customerId: number;
let productId: number;
let priceId: number;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  customer = new ShopClient(stack.url);
  customerId = (await customer.post('/shop/v1/auth/register', { email: 'buyer@example.com', password: 'password-1' })).body.user.id;
  guest = new ShopClient(stack.url);
  const product = await admin.post('/shop/v1/shop_product', { title: 'Couponable', status: 'publish', prices: [{ amount: 20 }] });
  productId = product.body.id;
  priceId = product.body.prices[0].id;
});
afterAll(() => stack?.stop());

async function coupon(fields: Record<string, unknown>) {
  const res = await manager.post(COUPONS, { status: 'publish', ...fields });
  if (res.status !== 201) throw new Error(`coupon create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Status, code and data.status of an error answer: one labelled row per input makes a failing input obvious. */
const outcome = (label: unknown, res: ShopResponse) => [label, res.status, res.body?.code, res.body?.data?.status];

async function couponCount(): Promise<number> {
  return Number((await admin.get(`${COUPONS}?status=any&per_page=1`)).headers.get('x-platform-total'));
}

describe('POST /shop_coupon', () => {
  it('creates a coupon (201, Location) in the posts shape with the coupon fields in meta', async () => {
    const res = await manager.post(COUPONS, {
      title: 'SUMMER10',
      content: 'Ten percent off.',
      status: 'publish',
      meta: {
        discount_type: 'percent',
        amount: '10',
        usage_limit: 100,
        usage_limit_per_user: 1,
        allowed_product_ids: [productId],
        allowed_price_ids: [priceId],
        allowed_customer_ids: [customerId],
        minimum_amount: 25.5,
        expiry_date: '2099-12-31',
        individual_use: true,
        free_shipping: true,
        campaign: { channel: 'newsletter', week: 27 },
      },
    });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(res.headers.get('location')).toBe(`${COUPONS}/${c.id}`);
    expect(c).toMatchObject({
      id: expect.any(Number),
      slug: 'summer10',
      status: 'publish',
      type: 'shop_coupon',
      link: `http://127.0.0.1:8080/?post_type=shop_coupon&p=${c.id}`,
      title: { raw: 'SUMMER10', rendered: 'SUMMER10' },
      content: { raw: 'Ten percent off.', rendered: '<p>Ten percent off.</p>\n', protected: false },
      excerpt: { raw: '', rendered: '', protected: false },
    });
    expect(c.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect([c.date_gmt, c.modified_gmt]).toEqual([c.date, c.modified]);
    expect(c.author).toBeGreaterThan(0);
    expect(c.meta).toEqual({
      discount_type: 'percent',
      amount: 10,
      usage_limit: 100,
      usage_limit_per_user: 1,
      usage_count: 0,
      allowed_product_ids: [productId],
      allowed_price_ids: [priceId],
      allowed_customer_ids: [customerId],
      excluded_product_ids: [],
      minimum_amount: 25.5,
      maximum_amount: null,
      expiry_date: '2099-12-31',
      individual_use: true,
      free_shipping: true,
      bogo_buy_quantity: 0,
      bogo_get_quantity: 0,
      campaign: { channel: 'newsletter', week: 27 },
    });
    expect(c._links.self[0].href).toBe(`${stack.url}${COUPONS}/${c.id}`);
    expect(c._links.collection[0].href).toBe(`${stack.url}${COUPONS}`);
  });

  it('accepts the coupon fields at the top level too; meta wins when both carry one', async () => {
    const c = await coupon({ title: 'TOPLEVEL', discount_type: 'fixed_cart', amount: 5, free_shipping: true, meta: { amount: 7 } });
    expect(c.meta).toMatchObject({ discount_type: 'fixed_cart', amount: 7, free_shipping: true });
  });

  it('takes the defaults: a fixed_cart draft of 0 by the caller', async () => {
    const res = await manager.post(COUPONS, { title: 'DEFAULTS' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', meta: { discount_type: 'fixed_cart', amount: 0, usage_limit: null, expiry_date: null } });
  });

  it('keeps codes unique case-insensitively (409); a trashed coupon frees its code', async () => {
    const first = await coupon({ title: 'Welcome' });
    expectError(await manager.post(COUPONS, { title: 'WELCOME' }), 409, 'shop_coupon_code_exists');
    expectError(await manager.post(COUPONS, { title: ' welcome ' }), 409, 'shop_coupon_code_exists');
    const other = await coupon({ title: 'Welcome2' });
    expectError(await manager.patch(`${COUPONS}/${other.id}`, { title: 'wElCoMe' }), 409, 'shop_coupon_code_exists');
    await manager.delete(`${COUPONS}/${first.id}`);
    expect((await manager.post(COUPONS, { title: 'welcome' })).status).toBe(201);
  });

  it('refuses references to missing products, prices or customers (422) and persists nothing', async () => {
    const before = await couponCount();
    const bad = [
      { allowed_product_ids: [productId, 999999] },
      { excluded_product_ids: [999998] },
      { allowed_price_ids: [999997] },
      { allowed_customer_ids: [999996] },
    ];
    for (const meta of bad) {
      expectError(await manager.post(COUPONS, { title: 'BADREF', meta }), 422, 'shop_coupon_invalid_reference');
    }
    expectError(await manager.post(COUPONS, { title: 'BADREF', allowed_customer_ids: [999996] }), 422, 'shop_coupon_invalid_reference');
    expect(await couponCount()).toBe(before);
    const existing = await coupon({ title: 'GOODREF' });
    expectError(await manager.patch(`${COUPONS}/${existing.id}`, { meta: { allowed_price_ids: [999995] } }), 422, 'shop_coupon_invalid_reference');
    expect((await manager.get(`${COUPONS}/${existing.id}`)).body.meta.allowed_price_ids).toEqual([]);
  });

  it('refuses bad values with 400 and an id with rest_post_exists', async () => {
    const bad: Array<Record<string, unknown>> = [
      { meta: { amount: -1 } },
      { meta: { amount: 'ten' } },
      { amount: '-5' },
      { meta: { amount: '1.234' } },
      { meta: { discount_type: 'half' } },
      { meta: { discount_type: 'percent', amount: 150 } },
      { meta: { usage_limit: -1 } },
      { meta: { usage_limit: 'lots' } },
      { meta: { expiry_date: '31/12/2099' } },
      { meta: { expiry_date: '2099-02-30' } },
      { meta: { allowed_product_ids: ['x'] } },
      { meta: { allowed_product_ids: [2 ** 31] } },
      { meta: { minimum_amount: 50, maximum_amount: 10 } },
      { meta: { bogo_buy_quantity: 1001 } },
      { title: '' },
      { title: ['CODE'] },
      { status: 'trash' },
    ];
    const outcomes = [];
    for (const fields of bad) outcomes.push(outcome(fields, await manager.post(COUPONS, { title: 'BADVALUE', ...fields })));
    expect(outcomes).toEqual(bad.map((fields) => [fields, 400, 'rest_invalid_param', 400]));
    expectError(await manager.post(COUPONS, { title: 'WITHID', id: 3 }), 400, 'rest_post_exists');
  });
});

describe('permissions (read_shop_coupon even for published coupons)', () => {
  it('hides coupons from guests and customers and lets managers and admins write', async () => {
    const c = await coupon({ title: 'STAFFONLY' });
    expectError(await guest.get(COUPONS), 401, 'rest_cannot_read');
    expectError(await customer.get(COUPONS), 403, 'rest_cannot_read');
    expectError(await guest.get(`${COUPONS}/${c.id}`), 401, 'rest_forbidden');
    expectError(await customer.get(`${COUPONS}/${c.id}`), 403, 'rest_forbidden');
    expectError(await guest.post(COUPONS, { title: 'NOPE' }), 401, 'rest_cannot_create');
    expectError(await customer.post(COUPONS, { title: 'NOPE' }), 403, 'rest_cannot_create');
    expectError(await customer.patch(`${COUPONS}/${c.id}`, { title: 'NOPE' }), 403, 'rest_cannot_edit');
    expectError(await customer.delete(`${COUPONS}/${c.id}?force=true`), 403, 'rest_cannot_delete');
    for (const editor of [manager, admin]) {
      const created = await editor.post(COUPONS, { title: `BY-${editor === admin ? 'ADMIN' : 'MANAGER'}`, status: 'publish' });
      expect(created.status).toBe(201);
      expect((await editor.put(`${COUPONS}/${created.body.id}`, { meta: { amount: 3 } })).body.meta.amount).toBe(3);
      expect((await editor.delete(`${COUPONS}/${created.body.id}?force=true`)).body.deleted).toBe(true);
    }
  });
});

describe('GET/PUT/PATCH /shop_coupon/<id>', () => {
  it('reads in the view, edit and embed contexts and answers unknown ids with 404', async () => {
    const c = await coupon({ title: 'CTX', excerpt: 'short' });
    const view = (await manager.get(`${COUPONS}/${c.id}`)).body;
    expect(view.title).toEqual({ rendered: 'CTX' });
    expect(view.meta.discount_type).toBe('fixed_cart');
    expect((await manager.get(`${COUPONS}/${c.id}?context=edit`)).body.title.raw).toBe('CTX');
    const embed = (await manager.get(`${COUPONS}/${c.id}?context=embed`)).body;
    expect(Object.keys(embed).sort()).toEqual(['_links', 'author', 'date', 'excerpt', 'id', 'link', 'slug', 'title', 'type']);
    expectError(await manager.get(`${COUPONS}/999999`), 404, 'rest_post_invalid_id');
    expectError(await manager.put(`${COUPONS}/999999`, { title: 'X' }), 404, 'rest_post_invalid_id');
    expectError(await manager.get(`${COUPONS}/2147483648`), 400, 'rest_invalid_param');
  });

  it('changes only the fields sent, clears with null, ignores usage_count and merges custom meta', async () => {
    const c = await coupon({
      title: 'PATCHME',
      meta: { amount: 4, usage_limit: 5, expiry_date: '2099-01-01', minimum_amount: 10, note: 'keep', temp: 'drop' },
    });
    const res = await manager.patch(`${COUPONS}/${c.id}`, {
      meta: { usage_limit: null, expiry_date: null, minimum_amount: null, usage_count: 99, temp: null, extra: [1, 2] },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({
      amount: 4,
      usage_limit: null,
      expiry_date: null,
      minimum_amount: null,
      usage_count: 0,
      note: 'keep',
      extra: [1, 2],
    });
    expect(res.body.meta).not.toHaveProperty('temp');
    expect(res.body.title.raw).toBe('PATCHME');
    const read = (await manager.get(`${COUPONS}/${c.id}?context=edit`)).body;
    const roundTrip = await manager.put(`${COUPONS}/${c.id}`, read);
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.meta).toEqual(read.meta);
  });
});

describe('GET /shop_coupon', () => {
  let springIds: number[];

  beforeAll(async () => {
    springIds = [];
    for (const title of ['SPRING-A', 'SPRING-B', 'SPRING-C']) springIds.push((await coupon({ title })).id);
  });

  it('paginates with X-Platform-Total, X-Platform-TotalPages and Link', async () => {
    const page1 = await manager.get(`${COUPONS}?search=spring&per_page=2&orderby=title&order=asc`);
    expect(page1.body.map((c: { id: number }) => c.id)).toEqual(springIds.slice(0, 2));
    expect(page1.headers.get('x-platform-total')).toBe('3');
    expect(page1.headers.get('x-platform-totalpages')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    const page2 = await manager.get(`${COUPONS}?search=spring&per_page=2&orderby=title&order=asc&page=2`);
    expect(page2.body.map((c: { id: number }) => c.id)).toEqual([springIds[2]]);
    expect(page2.headers.get('link')).toContain('rel="prev"');
  });

  it('filters by status, include and exclude', async () => {
    const draft = (await manager.post(COUPONS, { title: 'SPRING-DRAFT' })).body;
    const published = (await manager.get(`${COUPONS}?search=spring&per_page=100`)).body.map((c: { id: number }) => c.id);
    expect(published).not.toContain(draft.id);
    const drafts = (await manager.get(`${COUPONS}?search=spring&status=draft`)).body.map((c: { id: number }) => c.id);
    expect(drafts).toEqual([draft.id]);
    const included = await manager.get(`${COUPONS}?include=${springIds[2]},${springIds[0]}&orderby=include`);
    expect(included.body.map((c: { id: number }) => c.id)).toEqual([springIds[2], springIds[0]]);
    const excluded = await manager.get(`${COUPONS}?search=spring&exclude=${springIds[0]}`);
    expect(excluded.body.map((c: { id: number }) => c.id)).not.toContain(springIds[0]);
  });

  it('validates collection params (400) and treats SQL-looking searches as text', async () => {
    const bad = ['per_page=0', 'per_page=101', 'page=0', 'orderby=amount', 'order=up', 'status=expired', `include=${2 ** 31}`];
    const outcomes = [];
    for (const query of bad) outcomes.push(outcome(query, await manager.get(`${COUPONS}?${query}`)));
    expect(outcomes).toEqual(bad.map((query) => [query, 400, 'rest_invalid_param', 400]));
    const sqlish = await manager.get(`${COUPONS}?search=${encodeURIComponent("x' union select * from coupons --")}`);
    expect([sqlish.status, sqlish.body]).toEqual([200, []]);
  });
});

describe('DELETE /shop_coupon/<id>', () => {
  it('trashes without force (410 when already trashed) and deletes with force', async () => {
    const c = await coupon({ title: 'GONE' });
    const trashed = await manager.delete(`${COUPONS}/${c.id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ id: c.id, status: 'trash' });
    expectError(await manager.delete(`${COUPONS}/${c.id}`), 410, 'rest_already_trashed');
    const gone = await manager.request('DELETE', `${COUPONS}/${c.id}`, { json: { force: true } });
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: c.id, title: { raw: 'GONE' } } });
    expectError(await manager.get(`${COUPONS}/${c.id}`), 404, 'rest_post_invalid_id');
  });
});

describe('OPTIONS /shop_coupon', () => {
  it('describes the collection and the coupon schema with its meta fields', async () => {
    const res = await guest.options(COUPONS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ namespace: 'shop/v1', methods: expect.arrayContaining(['GET', 'POST']) });
    const list = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(list.args).not.toHaveProperty('shop_product_category');
    expect(list.args.status).toMatchObject({ type: 'array' });
    expect(Object.keys(res.body.schema.properties.meta.properties)).toEqual(
      expect.arrayContaining(['discount_type', 'amount', 'usage_count', 'allowed_customer_ids', 'expiry_date', 'bogo_get_quantity']),
    );
  });
});
