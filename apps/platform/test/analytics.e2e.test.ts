import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { waitFor } from '@storefront/testing';
import type { orders } from '@storefront/proto/orders';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { checkoutOrder, connectOrders, systemCaller, type OrdersGrpc } from './support/orders';

// Sales analytics (spec 4.17, docs/decisions.md "Analytics") over orders made
// through the orders service's checkout gRPC. Each order's status, creation
// time and refunded amount are then set in the orders schema: the reports
// read exactly those columns, and a test cannot wait for days to pass. Every
// expected number below is computed by hand from the table of orders.

let stack: Platform;
let db: pg.Client;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let catalogAdmin: CatalogAdmin;
let grpc: OrdersGrpc;
let unsoldProduct: { id: number; title: string };

const ANALYTICS = '/shop/v1/analytics';
const PRODUCTS = '/shop/v1/product-analytics';
/** `_links` of a product report: self and collection, from the configured site URL. */
const links = (id: number) => ({ self: [{ href: `${stack.url}${PRODUCTS}/${id}` }], collection: [{ href: `${stack.url}${PRODUCTS}` }] });
const PERIOD = 'from=2026-03-01&to=2026-03-03';

// Product ids of the seeded lines: far above the catalog's own ids.
const MUG = 9001;
const TEE = 9002;
const CAP = 9003;
// Customers (0 = guest).
const C1 = 501;
const C2 = 502;
const C3 = 503;
const C4 = 504;

interface Line {
  productId: number;
  name: string;
  quantity: number;
  /** Decimal strings. */
  subtotal: string;
  discount?: string;
}
interface Seed {
  at: string;
  status: string;
  customer: number;
  currency?: string;
  lines: Line[];
  shipping?: string;
  tax?: string;
  refunded?: string;
}

const cents = (v: string) => Math.round(Number(v) * 100);
const money = (c: number) => (c / 100).toFixed(2);

async function seed(s: Seed): Promise<number> {
  const subtotal = s.lines.reduce((n, l) => n + cents(l.subtotal), 0);
  const discount = s.lines.reduce((n, l) => n + cents(l.discount ?? '0'), 0);
  const shipping = cents(s.shipping ?? '0');
  const tax = cents(s.tax ?? '0');
  const lineItems: orders.NewLineItem[] = s.lines.map((l, i) => ({
    productId: l.productId,
    priceId: 100 + i,
    variationId: 0,
    name: l.name,
    quantity: l.quantity,
    price: money(cents(l.subtotal) / l.quantity),
    subtotal: l.subtotal,
    discount: l.discount ?? '0.00',
    tax: '0.00',
    total: money(cents(l.subtotal) - cents(l.discount ?? '0')),
    shippingRequired: true,
    downloadable: false,
    sku: '',
    metaJson: '',
  }));
  const { order } = await grpc.checkout.createOrder(
    checkoutOrder({
      currency: s.currency ?? 'USD',
      customerId: s.customer,
      lineItems,
      shippingLines: [],
      taxLines: [],
      subtotal: money(subtotal),
      discountTotal: money(discount),
      shippingTotal: money(shipping),
      totalTax: money(tax),
      total: money(subtotal - discount + shipping + tax),
    }),
    systemCaller(),
  );
  const id = order!.id;
  await db.query(`update "orders"."orders" set status = $2, date_created = $3, refunded_total = $4 where id = $1`, [
    id,
    s.status,
    s.at,
    cents(s.refunded ?? '0'),
  ]);
  return id;
}

const mug = (quantity: number, subtotal: string, discount?: string): Line => ({ productId: MUG, name: 'Mug', quantity, subtotal, discount });

beforeAll(async () => {
  stack = await startStack();
  const orders = stack.services.find((s) => s.name === 'orders')!;
  db = new pg.Client({ connectionString: orders.config.DATABASE_URL });
  await db.connect();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'buyer@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  catalogAdmin = await connectCatalogAdmin(stack, admin);
  const p = await catalogAdmin.simpleProduct({ title: 'Never sold lamp', amount: '30.00', shippingRequired: true });
  unsoldProduct = { id: p.id, title: 'Never sold lamp' };
  grpc = connectOrders(stack);

  // The period is 2026-03-01..03; with compare=2 the previous window is 2026-02-27..28.
  // A: counted, C1's first order (C1 is new in the period).
  await seed({
    at: '2026-03-01T10:00:00Z',
    status: 'processing',
    customer: C1,
    lines: [mug(2, '20.00'), { productId: TEE, name: 'Tee', quantity: 1, subtotal: '15.00', discount: '5.00' }],
    shipping: '5.00',
    tax: '3.00',
  });
  // B: counted, a guest (never a new customer).
  await seed({ at: '2026-03-01T23:30:00Z', status: 'completed', customer: 0, lines: [mug(1, '10.00')], tax: '1.00' });
  // C: counted, fully refunded; C2 ordered before the period (K), so not new.
  await seed({
    at: '2026-03-02T00:15:00Z',
    status: 'refunded',
    customer: C2,
    lines: [{ productId: TEE, name: 'Tee', quantity: 2, subtotal: '30.00' }],
    shipping: '5.00',
    refunded: '35.00',
  });
  // D: counted, C1 again.
  await seed({
    at: '2026-03-03T12:00:00Z',
    status: 'on_hold',
    customer: C1,
    lines: [{ productId: CAP, name: 'Cap 100%_cotton', quantity: 4, subtotal: '8.00' }],
  });
  // Never counted: pending payment, failed, cancelled, checkout draft (GBP appears in no currency list).
  await seed({ at: '2026-03-02T09:00:00Z', status: 'pending_payment', customer: C1, lines: [mug(5, '50.00')] });
  await seed({ at: '2026-03-02T09:00:00Z', status: 'failed', customer: C4, lines: [mug(5, '50.00')] });
  await seed({ at: '2026-03-02T09:00:00Z', status: 'cancelled', customer: C4, currency: 'GBP', lines: [mug(5, '50.00')] });
  await seed({ at: '2026-03-02T09:00:00Z', status: 'checkout_draft', customer: C4, lines: [mug(5, '50.00')] });
  // I: counted, in EUR: only in the EUR report and the currency list.
  await seed({ at: '2026-03-02T15:00:00Z', status: 'completed', customer: C3, currency: 'EUR', lines: [mug(1, '12.00')] });
  // J: the first second after the period (`to` is inclusive of its whole day, not more).
  await seed({ at: '2026-03-04T00:00:00Z', status: 'completed', customer: C4, lines: [mug(7, '70.00')] });
  // K: the last second of the previous window; C2's first counted order.
  await seed({ at: '2026-02-28T23:59:59Z', status: 'completed', customer: C2, lines: [mug(2, '20.00', '2.00')], shipping: '5.00', tax: '2.30' });
  // L: before the previous window (compare=2); inside it with compare=3.
  await seed({ at: '2026-02-26T08:00:00Z', status: 'completed', customer: C4, lines: [mug(1, '10.00')] });
});

afterAll(async () => {
  grpc?.close();
  catalogAdmin?.close();
  await db?.end();
  await stack?.stop();
});

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params ?? {})).toContain(field);
}

const zeroTotals = {
  gross_sales: 0,
  net_sales: 0,
  orders_count: 0,
  items_sold: 0,
  average_order_value: 0,
  discounts: 0,
  shipping: 0,
  tax: 0,
  refunds: 0,
  new_customers: 0,
};

describe('GET /analytics', () => {
  it('totals the counted orders of the period, the previous window and every day, in the store currency', async () => {
    const res = await admin.get(`${ANALYTICS}?${PERIOD}&compare=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-03-01',
      to: '2026-03-03',
      currency: 'USD',
      currencies_in_period: ['EUR', 'USD'],
      // A + B + C + D. gross 35 + 10 + 30 + 8; discounts 5 (A); refunds 30 (C refunded 35, of which
      // 5 was shipping: only its products' 30 leaves the sales); net 83 - 5 - 30.
      totals: {
        gross_sales: 83,
        net_sales: 48,
        orders_count: 4,
        items_sold: 10,
        average_order_value: 12,
        discounts: 5,
        shipping: 10,
        tax: 4,
        refunds: 30,
        new_customers: 1,
      },
      // K alone; C2 had no counted order before 2026-02-27.
      previous: {
        gross_sales: 20,
        net_sales: 18,
        orders_count: 1,
        items_sold: 2,
        average_order_value: 18,
        discounts: 2,
        shipping: 5,
        tax: 2.3,
        refunds: 0,
        new_customers: 1,
      },
      intervals: [
        { date: '2026-03-01', gross_sales: 45, net_sales: 40, orders_count: 2 },
        { date: '2026-03-02', gross_sales: 30, net_sales: 0, orders_count: 1 },
        { date: '2026-03-03', gross_sales: 8, net_sales: 8, orders_count: 1 },
      ],
    });
  });

  it('moves the previous window with compare (default 30 days) and counts zero days in the intervals', async () => {
    const three = await admin.get(`${ANALYTICS}?${PERIOD}&compare=3`);
    // K and L (2026-02-26): C4's first counted order is L, C2's is K.
    expect(three.body.previous).toMatchObject({ gross_sales: 30, net_sales: 28, orders_count: 2, items_sold: 3, new_customers: 2 });
    const byDefault = await admin.get(`${ANALYTICS}?${PERIOD}`);
    expect(byDefault.body.previous).toEqual(three.body.previous);
    // A window with nothing in it: all zeros, one interval per day.
    const empty = await admin.get(`${ANALYTICS}?from=2026-01-01&to=2026-01-10&compare=5`);
    expect(empty.status).toBe(200);
    expect(empty.body.totals).toEqual(zeroTotals);
    expect(empty.body.previous).toEqual(zeroTotals);
    expect(empty.body.currencies_in_period).toEqual([]);
    expect(empty.body.intervals).toHaveLength(10);
    expect(empty.body.intervals[9]).toEqual({ date: '2026-01-10', gross_sales: 0, net_sales: 0, orders_count: 0 });
    // J falls on the day after `to`; a one-day period holds only it.
    const after = await admin.get(`${ANALYTICS}?from=2026-03-04&to=2026-03-04`);
    expect(after.body.totals).toMatchObject({ gross_sales: 70, orders_count: 1, items_sold: 7, new_customers: 0 });
  });

  it('reports another currency on request (any case); amounts never mix currencies', async () => {
    const res = await admin.get(`${ANALYTICS}?${PERIOD}&currency=eur`);
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('EUR');
    expect(res.body.currencies_in_period).toEqual(['EUR', 'USD']);
    expect(res.body.totals).toEqual({ ...zeroTotals, gross_sales: 12, net_sales: 12, orders_count: 1, items_sold: 1, average_order_value: 12, new_customers: 1 });
    expect(res.body.intervals[1]).toEqual({ date: '2026-03-02', gross_sales: 12, net_sales: 12, orders_count: 1 });
    // A well-formed code without orders is an empty report, not an error.
    const none = await admin.get(`${ANALYTICS}?${PERIOD}&currency=JPY`);
    expect(none.status).toBe(200);
    expect(none.body.totals).toEqual(zeroTotals);
  });

  it('defaults to the month up to today (UTC)', async () => {
    const res = await admin.get(ANALYTICS);
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.to).toBe(today);
    const from = new Date(`${today}T00:00:00Z`);
    from.setUTCMonth(from.getUTCMonth() - 1);
    // Clamped at the month's end (03-31 -> 02-28): at most one month back.
    expect(res.body.from <= today).toBe(true);
    expect(Date.parse(`${res.body.from}T00:00:00Z`)).toBeGreaterThanOrEqual(from.getTime() - 3 * 86_400_000);
    const days = (Date.parse(`${res.body.to}T00:00:00Z`) - Date.parse(`${res.body.from}T00:00:00Z`)) / 86_400_000 + 1;
    expect(res.body.intervals).toHaveLength(days);
    expect(res.body.currency).toBe('USD');
  });

  it('reports in the store currency of the settings by default', async () => {
    await admin.patch('/platform/v1/settings', { currency: 'EUR' });
    try {
      // Orders drops its cached store settings on customers.site_settings_updated.
      const euro = await waitFor(async () => {
        const res = await admin.get(`${ANALYTICS}?${PERIOD}`);
        return res.body.currency === 'EUR' ? res : null;
      }, 10_000, 200);
      expect(euro?.body.totals.gross_sales).toBe(12);
    } finally {
      await admin.patch('/platform/v1/settings', { currency: 'USD' });
      await waitFor(async () => ((await admin.get(`${ANALYTICS}?${PERIOD}`)).body.currency === 'USD' ? true : null), 10_000, 200);
    }
  });

  it('answers 400 rest_invalid_param naming the field for bad input, never 5xx', async () => {
    const cases: Array<[string, string]> = [
      ['from=2026-02-30', 'from'],
      ['from=03/01/2026', 'from'],
      ['to=2026-13-01', 'to'],
      ['from=2026-03-05&to=2026-03-01', 'from'],
      ['from=2000-01-01&to=2026-01-01', 'from'],
      ['compare=-1', 'compare'],
      ['compare=0', 'compare'],
      ['compare=1000000', 'compare'],
      ['compare=abc', 'compare'],
      ['compare=1.5', 'compare'],
      ['currency=US', 'currency'],
      ['currency=US1', 'currency'],
      ['currency=XYZ', 'currency'],
      ['currency=%00%00%00', 'currency'],
    ];
    for (const [query, field] of cases) expectInvalid(await admin.get(`${ANALYTICS}?${query}`), field);
    // The edges of the calendar are answered, not failed.
    for (const query of ['from=9999-12-01&to=9999-12-31', 'from=1970-01-01&to=1970-01-02&compare=3660']) {
      const res = await admin.get(`${ANALYTICS}?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.totals).toEqual(zeroTotals);
    }
    expect((await admin.get(`${PRODUCTS}?from=9999-12-01&to=9999-12-31&search=${encodeURIComponent('a\u0000')}`)).status).toBe(400);
    expect((await admin.get(`${PRODUCTS}/${MUG}?from=9999-12-01&to=9999-12-31`)).status).toBe(200);
  });
});

describe('GET /product-analytics', () => {
  it('lists the products sold in the period by net sales, with pagination headers', async () => {
    const res = await admin.get(`${PRODUCTS}?${PERIOD}`);
    expect(res.status).toBe(200);
    // Mug: A (2, 20) + B (1, 10); Tee: A (1, 15 - 5) + C (2, 30, all refunded: 0, as in the store's net sales); Cap: D (4, 8).
    expect(res.body).toEqual([
      { product_id: MUG, name: 'Mug', items_sold: 3, net_sales: 30, orders_count: 2, _links: links(MUG) },
      { product_id: TEE, name: 'Tee', items_sold: 3, net_sales: 10, orders_count: 2, _links: links(TEE) },
      { product_id: CAP, name: 'Cap 100%_cotton', items_sold: 4, net_sales: 8, orders_count: 1, _links: links(CAP) },
    ]);
    expect(res.headers.get('x-platform-total')).toBe('3');
    expect(res.headers.get('x-platform-totalpages')).toBe('1');

    const first = await admin.get(`${PRODUCTS}?${PERIOD}&per_page=2`);
    expect(first.body.map((p: { product_id: number }) => p.product_id)).toEqual([MUG, TEE]);
    expect(first.headers.get('x-platform-total')).toBe('3');
    expect(first.headers.get('x-platform-totalpages')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await admin.get(`${PRODUCTS}?${PERIOD}&per_page=2&page=2`);
    expect(second.body.map((p: { product_id: number }) => p.product_id)).toEqual([CAP]);
    expect(second.headers.get('link')).toContain('rel="prev"');
    const past = await admin.get(`${PRODUCTS}?${PERIOD}&per_page=2&page=3`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-platform-total')).toBe('3');
  });

  it('filters by name (case-insensitive, wildcards literal) and by currency', async () => {
    const mugs = await admin.get(`${PRODUCTS}?${PERIOD}&search=MU`);
    expect(mugs.body.map((p: { product_id: number }) => p.product_id)).toEqual([MUG]);
    expect(mugs.headers.get('x-platform-total')).toBe('1');
    const percent = await admin.get(`${PRODUCTS}?${PERIOD}&search=${encodeURIComponent('100%_')}`);
    expect(percent.body.map((p: { product_id: number }) => p.product_id)).toEqual([CAP]);
    // As LIKE patterns these would match Cap and Mug.
    expect((await admin.get(`${PRODUCTS}?${PERIOD}&search=${encodeURIComponent('p%')}`)).body).toEqual([]);
    expect((await admin.get(`${PRODUCTS}?${PERIOD}&search=M_g`)).body).toEqual([]);
    const euro = await admin.get(`${PRODUCTS}?${PERIOD}&currency=EUR`);
    expect(euro.body).toEqual([{ product_id: MUG, name: 'Mug', items_sold: 1, net_sales: 12, orders_count: 1, _links: links(MUG) }]);
  });

  it('rejects per_page outside 1..100 and other bad input with 400 rest_invalid_param', async () => {
    expect((await admin.get(`${PRODUCTS}?${PERIOD}&per_page=100`)).status).toBe(200);
    const cases: Array<[string, string]> = [
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['per_page=ten', 'per_page'],
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['from=2026-02-31', 'from'],
      ['from=2026-03-05&to=2026-03-01', 'from'],
      ['currency=EURO', 'currency'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ];
    for (const [query, field] of cases) expectInvalid(await admin.get(`${PRODUCTS}?${query}`), field);
  });
});

describe('GET /product-analytics/<id>', () => {
  it('reports one product with its days, in the store currency', async () => {
    const res = await admin.get(`${PRODUCTS}/${MUG}?${PERIOD}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      product_id: MUG,
      name: 'Mug',
      from: '2026-03-01',
      to: '2026-03-03',
      currency: 'USD',
      items_sold: 3,
      net_sales: 30,
      orders_count: 2,
      intervals: [
        { date: '2026-03-01', items_sold: 3, net_sales: 30, orders_count: 2 },
        { date: '2026-03-02', items_sold: 0, net_sales: 0, orders_count: 0 },
        { date: '2026-03-03', items_sold: 0, net_sales: 0, orders_count: 0 },
      ],
      _links: links(MUG),
    });
  });

  it('reports zeros for a product without sales (its catalog name) and 404 for an unknown id', async () => {
    const quiet = await admin.get(`${PRODUCTS}/${MUG}?from=2026-01-01&to=2026-01-02`);
    expect(quiet.body).toMatchObject({ name: 'Mug', items_sold: 0, net_sales: 0, orders_count: 0 });
    expect(quiet.body.intervals).toHaveLength(2);
    const unsold = await admin.get(`${PRODUCTS}/${unsoldProduct.id}?${PERIOD}`);
    expect(unsold.status).toBe(200);
    expect(unsold.body).toMatchObject({ product_id: unsoldProduct.id, name: unsoldProduct.title, items_sold: 0, net_sales: 0, orders_count: 0 });
    expectError(await admin.get(`${PRODUCTS}/987654?${PERIOD}`), 404, 'rest_post_invalid_id');
  });

  it('answers 400 for a bad id or period', async () => {
    expectInvalid(await admin.get(`${PRODUCTS}/abc`), 'id');
    expectInvalid(await admin.get(`${PRODUCTS}/0`), 'id');
    expectInvalid(await admin.get(`${PRODUCTS}/${MUG}?to=2026-02-29`), 'to');
    expectInvalid(await admin.get(`${PRODUCTS}/${MUG}?from=2026-03-05&to=2026-03-01`), 'from');
  });
});

describe('permission tier: admin (manage_options)', () => {
  it('is 401 for guests and 403 for customers and shop managers on every analytics route', async () => {
    const paths = [ANALYTICS, PRODUCTS, `${PRODUCTS}/${MUG}`, `${ANALYTICS}?compare=-1`];
    for (const path of paths) {
      expectError(await guest.get(path), 401, 'shop_rest_forbidden_context');
      expectError(await customer.get(path), 403, 'shop_rest_forbidden_context');
      expectError(await manager.get(path), 403, 'shop_rest_forbidden_context');
    }
  });
});
