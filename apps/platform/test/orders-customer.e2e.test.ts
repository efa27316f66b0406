import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { orders } from '@storefront/proto/orders';
import { common } from '@storefront/proto';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { checkoutOrder, connectOrders, systemCaller, type OrdersGrpc } from './support/orders';

let stack: Platform;
let admin: ShopClient;
let customer: ShopClient;
let other: ShopClient;
let guest: ShopClient;
let catalogAdmin: CatalogAdmin;
let grpc: OrdersGrpc;
let customerId: number;
let mugPrice: number;
let nc: NatsConnection;
let jsm: JetStreamManager;

const ORDERS = '/shop/v1/order';
const MINE = '/shop/v1/me/orders';
const SITE = 'https://shop.example.test';
const US = { first_name: 'Bea', last_name: 'Buyer', email: 'bea@example.com', country: 'US', state: 'NY' };

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  expect((await admin.patch('/platform/v1/settings', { site_url: SITE })).status).toBe(200);
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'bea@example.com', password: 'password-1' })).status).toBe(200);
  customerId = (await customer.get('/shop/v1/me')).body.id;
  other = new ShopClient(stack.url);
  expect((await other.post('/shop/v1/auth/register', { email: 'otto@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  catalogAdmin = await connectCatalogAdmin(stack, admin);
  mugPrice = (await catalogAdmin.simpleProduct({ title: 'Mug', amount: '12.50', shippingRequired: false })).prices[0].id;
  grpc = connectOrders(stack);
  nc = await connect({ servers: stack.gateway.config.NATS_URL });
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  await nc?.close();
  grpc?.close();
  catalogAdmin?.close();
  await stack?.stop();
});

async function orderFor(owner: number, fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await admin.post(ORDERS, {
    customer_id: owner,
    billing: US,
    payment_method: 'bacs',
    line_items: [{ price_id: mugPrice, quantity: 2 }],
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const subject = (event: string) => `${stack.gateway.config.EVENTS_SUBJECT_PREFIX}.orders.${event}.v1`;
const stream = () => stack.gateway.config.EVENTS_STREAM;

/** Every stored message of an order event, decoded. */
async function published<T>(event: string, decode: (b: Uint8Array) => T): Promise<Array<{ seq: number; data: Uint8Array; headers: Record<string, string>; payload: T }>> {
  const info = await jsm.streams.info(stream());
  const out: Array<{ seq: number; data: Uint8Array; headers: Record<string, string>; payload: T }> = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const msg = await jsm.streams.getMessage(stream(), { seq }).catch(() => null);
    if (!msg || msg.subject !== subject(event)) continue;
    const headers: Record<string, string> = {};
    for (const key of msg.header?.keys() ?? []) headers[key] = msg.header!.get(key);
    out.push({ seq, data: msg.data, headers, payload: decode(msg.data) });
  }
  return out;
}

async function stats(client: ShopClient) {
  return (await client.get('/shop/v1/me')).body.stats as { total_orders: number; total_spent: number };
}

/** Until the durable consumer has acknowledged everything up to `seq`. */
async function consumerCaughtUp(durable: string, seq: number): Promise<void> {
  await waitFor(async () => {
    const info = await jsm.consumers.info(stream(), durable);
    return info.ack_floor.stream_seq >= seq && info.num_ack_pending === 0;
  }, 20_000);
}

/**
 * A real second delivery: the same stored event (same Shop-Event-Id, so the
 * same envelope id) published again under a new Nats-Msg-Id, so JetStream
 * stores and delivers it; only the consumer's inbox can drop it.
 */
async function redeliver(message: { data: Uint8Array; headers: Record<string, string> }, event: string): Promise<number> {
  const h = natsHeaders();
  for (const [key, value] of Object.entries(message.headers)) h.set(key, value);
  const fresh = `${message.headers['Shop-Event-Id']}-again-${Date.now()}`;
  h.set('Nats-Msg-Id', fresh);
  const ack = await jetstream(nc).publish(subject(event), message.data, { msgID: fresh, headers: h });
  expect(ack.duplicate).toBe(false);
  return ack.seq;
}

describe('permission tier: logged-in (me/orders)', () => {
  it('is 401 shop_rest_not_logged_in for guests on every route', async () => {
    const o = await orderFor(customerId);
    for (const res of [
      await guest.get(MINE),
      await guest.get(`${MINE}/${o.id}`),
      await guest.post(`${MINE}/${o.id}/cancel`),
      await guest.post(`${MINE}/${o.id}/pay`),
      await guest.get(`${MINE}/${o.id}/invoice`),
    ]) {
      expectError(res, 401, 'shop_rest_not_logged_in');
    }
  });

  it("answers 404 for another customer's order (admins too: me is the caller's own)", async () => {
    const o = await orderFor(customerId);
    for (const client of [other, admin]) {
      expectError(await client.get(`${MINE}/${o.id}`), 404);
      expectError(await client.post(`${MINE}/${o.id}/cancel`), 404);
      expectError(await client.post(`${MINE}/${o.id}/pay`), 404);
      expectError(await client.get(`${MINE}/${o.id}/invoice`), 404);
    }
    expectError(await customer.get(`${MINE}/999999`), 404);
    expect((await admin.get(`${ORDERS}/${o.id}`)).body.status).toBe('pending_payment');
  });
});

describe('GET /me/orders', () => {
  it('lists the caller\'s orders without drafts, newest first, with pagination headers and a status filter', async () => {
    const fresh = new ShopClient(stack.url);
    expect((await fresh.post('/shop/v1/auth/register', { email: 'lister@example.com', password: 'password-1' })).status).toBe(200);
    const id = (await fresh.get('/shop/v1/me')).body.id;
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await orderFor(id));
    await admin.patch(`${ORDERS}/${created[0].id}`, { status: 'on_hold' });
    await grpc.checkout.createOrder(checkoutOrder({ status: 'checkout_draft', customerId: id }), systemCaller());

    const page1 = await fresh.get(MINE);
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(10);
    expect(page1.headers.get('x-platform-total')).toBe('12');
    expect(page1.headers.get('x-platform-totalpages')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.body[0]).toEqual({
      id: created[11].id,
      status: 'pending_payment',
      paid_status: 'unpaid',
      currency: 'USD',
      total: 25,
      item_count: 2,
      date_created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      date_modified: expect.any(String),
      date_paid: null,
      date_completed: null,
      needs_payment: true,
      _links: expect.any(Object),
    });
    const page2 = await fresh.get(`${MINE}?page=2`);
    expect(page2.body).toHaveLength(2);
    expect(page2.headers.get('link')).toContain('rel="prev"');
    const clamped = await fresh.get(`${MINE}?per_page=500`);
    expect(clamped.status).toBe(200);
    expect(clamped.body).toHaveLength(12);
    expect(clamped.headers.get('x-platform-totalpages')).toBe('1');
    expect(clamped.body.some((o: any) => o.status === 'checkout_draft')).toBe(false);

    const held = await fresh.get(`${MINE}?status=on_hold`);
    expect(held.body.map((o: any) => o.id)).toEqual([created[0].id]);
    const two = await fresh.get(`${MINE}?status=on_hold,pending_payment&per_page=100`);
    expect(two.body).toHaveLength(12);
    expect((await fresh.get(`${MINE}?status=checkout_draft`)).body).toEqual([]);
    expectError(await fresh.get(`${MINE}?status=shipped`), 400, 'rest_invalid_param');
    expectError(await fresh.get(`${MINE}?per_page=0`), 400, 'rest_invalid_param');
    expectError(await fresh.get(`${MINE}?page=abc`), 400, 'rest_invalid_param');
  });
});

describe('GET /me/orders/<id>, pay, invoice, cancel', () => {
  it('shows the detail: lines, totals, addresses, payment method, transaction id, downloadable items', async () => {
    const ebook = (await catalogAdmin.simpleProduct({ title: 'Ebook', amount: '3.00', shippingRequired: false, downloadable: true })).prices[0].id;
    const o = await orderFor(customerId, {
      line_items: [{ price_id: mugPrice, quantity: 1 }, { price_id: ebook, quantity: 1 }],
      transaction_id: 'tx-77',
      payment_method_title: 'Bank transfer',
    });
    const res = await customer.get(`${MINE}/${o.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: o.id,
      status: 'pending_payment',
      totals: { subtotal: 15.5, discount: 0, shipping: 0, tax: 0, total: 15.5 },
      billing: US,
      payment_method: 'bacs',
      payment_method_title: 'Bank transfer',
      transaction_id: 'tx-77',
      item_count: 2,
    });
    expect(res.body.line_items.map((l: any) => l.name)).toEqual(['Mug', 'Ebook']);
    // Unpaid, it grants no download: none listed. Paid, the ebook is.
    expect(res.body.downloadable_items).toEqual([]);
    expect((await admin.put(`/shop/v1/order/${o.id}`, { status: 'processing' })).status).toBe(200);
    expect((await customer.get(`${MINE}/${o.id}`)).body.downloadable_items).toEqual([
      { line_item_id: res.body.line_items[1].id, product_id: expect.any(Number), variation_id: 0, name: 'Ebook', quantity: 1 },
    ]);
    const draft = await grpc.checkout.createOrder(checkoutOrder({ status: 'checkout_draft', customerId }), systemCaller());
    expectError(await customer.get(`${MINE}/${draft.order!.id}`), 404);
  });

  it('pay answers {order_id, pay_url, amount, currency} from the configured site URL; 409 once paid', async () => {
    const o = await orderFor(customerId);
    const res = await customer.post(`${MINE}/${o.id}/pay`, undefined, { headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      order_id: o.id,
      pay_url: `${SITE}/checkout/order-pay/${o.id}/?pay_for_order=true&key=${o.order_key}`,
      amount: 25,
      currency: 'USD',
    });
    await admin.patch(`${ORDERS}/${o.id}`, { status: 'processing' });
    expectError(await customer.post(`${MINE}/${o.id}/pay`), 409, 'shop_order_already_paid');
    const cancelled = await orderFor(customerId);
    await admin.patch(`${ORDERS}/${cancelled.id}`, { status: 'cancelled' });
    expectError(await customer.post(`${MINE}/${cancelled.id}/pay`), 409, 'shop_order_not_payable');
  });

  it('invoice answers {order_id, invoice_url} from the configured site URL', async () => {
    const o = await orderFor(customerId);
    const res = await customer.get(`${MINE}/${o.id}/invoice`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ order_id: o.id, invoice_url: `${SITE}/my-account/view-order/${o.id}/` });
  });

  it('cancels pending_payment and on_hold orders; 409 for every other status', async () => {
    const pending = await orderFor(customerId);
    const res = await customer.post(`${MINE}/${pending.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pending.id, status: 'cancelled' });
    const held = await orderFor(customerId, { status: 'on_hold' });
    expect((await customer.post(`${MINE}/${held.id}/cancel`)).body.status).toBe('cancelled');
    for (const status of ['processing', 'completed', 'failed', 'cancelled']) {
      const o = await orderFor(customerId);
      expect((await admin.patch(`${ORDERS}/${o.id}`, { status })).status).toBe(200);
      expectError(await customer.post(`${MINE}/${o.id}/cancel`), 409, 'shop_order_not_cancellable');
      expect((await admin.get(`${ORDERS}/${o.id}`)).body.status).toBe(status);
    }
  });
});

describe('events and the customer stats consumer', () => {
  it('order_paid counts once; a real redelivery of the same event changes nothing', async () => {
    const buyer = new ShopClient(stack.url);
    expect((await buyer.post('/shop/v1/auth/register', { email: 'stats@example.com', password: 'password-1' })).status).toBe(200);
    const buyerId = (await buyer.get('/shop/v1/me')).body.id;
    expect(await stats(buyer)).toMatchObject({ total_orders: 0, total_spent: 0 });
    const o = await orderFor(buyerId);
    expect((await admin.patch(`${ORDERS}/${o.id}`, { status: 'processing' })).status).toBe(200);
    await waitFor(async () => (await stats(buyer)).total_orders === 1, 20_000);
    expect(await stats(buyer)).toMatchObject({ total_orders: 1, total_spent: 25 });

    const paid = (await waitFor(async () => {
      const found = (await published('order_paid', orders.OrderPaid.decode)).filter((m) => m.payload.orderId === o.id);
      return found.length ? found : null;
    }))!;
    expect(paid).toHaveLength(1);
    expect(paid[0].payload).toMatchObject({
      orderId: o.id,
      customerId: buyerId,
      currency: 'USD',
      total: '25.00',
      status: 'processing',
      lines: [{ priceId: mugPrice, quantity: 2, total: '25.00' }],
    });
    const seq = await redeliver(paid[0], 'order_paid');
    await consumerCaughtUp('customers_order_stats_paid', seq);
    expect(await stats(buyer)).toMatchObject({ total_orders: 1, total_spent: 25 });

    // Cancelling the paid order takes it back, once.
    expect((await admin.patch(`${ORDERS}/${o.id}`, { status: 'cancelled' })).status).toBe(200);
    await waitFor(async () => (await stats(buyer)).total_orders === 0, 20_000);
    expect(await stats(buyer)).toMatchObject({ total_orders: 0, total_spent: 0 });
    const cancelled = (await waitFor(async () => {
      const found = (await published('order_cancelled', orders.OrderCancelled.decode)).filter((m) => m.payload.orderId === o.id);
      return found.length ? found : null;
    }))!;
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0].payload).toMatchObject({ orderId: o.id, customerId: buyerId, wasPaid: true, total: '25.00', previousStatus: 'processing' });
    const seq2 = await redeliver(cancelled[0], 'order_cancelled');
    await consumerCaughtUp('customers_order_stats_cancelled', seq2);
    expect(await stats(buyer)).toMatchObject({ total_orders: 0, total_spent: 0 });
  });

  it('refunding a paid order goes through the gateway, publishes order_refunded and takes the stats back once', async () => {
    const buyer = new ShopClient(stack.url);
    expect((await buyer.post('/shop/v1/auth/register', { email: 'refund@example.com', password: 'password-1' })).status).toBe(200);
    const buyerId = (await buyer.get('/shop/v1/me')).body.id;
    const o = await orderFor(buyerId, { payment_method: 'test_card', transaction_id: 'ch_test_1', set_paid: true });
    expect(o).toMatchObject({ status: 'completed', paid_status: 'paid' });
    await waitFor(async () => (await stats(buyer)).total_orders === 1, 20_000);
    const refunded = await admin.patch(`${ORDERS}/${o.id}`, { status: 'refunded', reason: 'Damaged' });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', paid_status: 'refunded', needs_payment: false });
    expect((await admin.get(`${ORDERS}/${o.id}?context=edit`)).body.refunded_total).toBe(25);
    await waitFor(async () => (await stats(buyer)).total_orders === 0, 20_000);
    expect(await stats(buyer)).toMatchObject({ total_orders: 0, total_spent: 0 });
    const events = (await waitFor(async () => {
      const found = (await published('order_refunded', orders.OrderRefunded.decode)).filter((m) => m.payload.orderId === o.id);
      return found.length ? found : null;
    }))!;
    expect(events[0].payload).toMatchObject({ customerId: buyerId, amount: '25.00', currency: 'USD', full: true, reason: 'Damaged' });
    const seq = await redeliver(events[0], 'order_refunded');
    await consumerCaughtUp('customers_order_stats_refunded', seq);
    expect(await stats(buyer)).toMatchObject({ total_orders: 0, total_spent: 0 });
    // A refunded order is final.
    expectError(await admin.patch(`${ORDERS}/${o.id}`, { status: 'processing' }), 409, 'shop_order_invalid_transition');
    // Cash on delivery is paid back by hand: the refund is recorded and the order is refunded.
    const cod = await orderFor(buyerId, { payment_method: 'cod', set_paid: true });
    expect((await admin.patch(`${ORDERS}/${cod.id}`, { status: 'refunded' })).body).toMatchObject({ status: 'refunded', paid_status: 'refunded' });
    // The refund reached the gateway but its answer was lost (orders changed nothing): the retried request carries the
    // same refund's key, so payments answers that refund and pays back nothing more.
    const payments = stack.services.find((s) => s.name === 'payments')!.db;
    const twice = await orderFor(buyerId, { payment_method: 'test_card', transaction_id: 'ch_test_2', set_paid: true });
    const key = `order-${twice.id}-${createHash('sha256').update('ch_test_2').digest('hex').slice(0, 16)}-refund-from-0-of-2500`;
    await payments.em().execute(
      `insert into "payments"."refunds" ("id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency", "reason", "idempotency_key", "created_at")
       values ('re_lost_answer', ?, 'test_card', 'ch_test_2', 2500, 'USD', '', ?, now())`,
      [twice.id, key],
    );
    expect((await admin.patch(`${ORDERS}/${twice.id}`, { status: 'refunded' })).body).toMatchObject({ status: 'refunded', paid_status: 'refunded' });
    const refundsOf = (id: number) => payments.em().execute(`select "id", "amount_minor"::int as "amount" from "payments"."refunds" where "order_id" = ?`, [id]);
    expect(await refundsOf(twice.id)).toEqual([{ id: 're_lost_answer', amount: 2500 }]);
    // Two requests at once (a double click) pay back once too.
    const clicked = await orderFor(buyerId, { payment_method: 'test_card', transaction_id: 'ch_test_3', set_paid: true });
    const answers = await Promise.all([1, 2].map(() => admin.patch(`${ORDERS}/${clicked.id}`, { status: 'refunded' })));
    expect(answers.map((a) => a.status)).toContain(200);
    for (const a of answers) expect(a.status).toBeLessThan(500);
    expect(await refundsOf(clicked.id)).toEqual([{ id: expect.stringMatching(/^re_/), amount: 2500 }]);
  });

  it('customer cancel publishes order_cancelled with lines, coupon codes, reservation and was_paid', async () => {
    const { order } = await grpc.checkout.createOrder(
      checkoutOrder({ customerId, couponCodes: ['SAVE5'], reservationId: 'res-cancel-1', couponLines: [{ code: 'SAVE5', discount: '0.00' }] }),
      systemCaller(customerId),
    );
    const placed = (await waitFor(async () => {
      const found = (await published('order_placed', orders.OrderPlaced.decode)).filter((m) => m.payload.orderId === order!.id);
      return found.length ? found : null;
    }))!;
    expect(placed).toHaveLength(1);
    expect(placed[0].payload).toMatchObject({ status: 'pending_payment', reservationId: 'res-cancel-1', couponCodes: ['SAVE5'] });
    expect((await customer.post(`${MINE}/${order!.id}/cancel`)).status).toBe(200);
    const events = await waitFor(async () => {
      const found = (await published('order_cancelled', orders.OrderCancelled.decode)).filter((m) => m.payload.orderId === order!.id);
      return found.length ? found : null;
    });
    expect(events![0].payload).toMatchObject({
      orderId: order!.id,
      reservationId: 'res-cancel-1',
      couponCodes: ['SAVE5'],
      wasPaid: false,
      customerId,
      previousStatus: 'pending_payment',
      lines: [{ productId: 11, priceId: 21, quantity: 2, name: 'Mug' }],
    });
    const changes = (await waitFor(async () => {
      const found = (await published('order_status_changed', orders.OrderStatusChanged.decode)).filter((m) => m.payload.orderId === order!.id);
      return found.length ? found : null;
    }))!;
    expect(changes.map((c) => [c.payload.fromStatus, c.payload.toStatus, c.payload.byUserId])).toEqual([['pending_payment', 'cancelled', customerId]]);
  });

  it('publishes order_failed and PII-free activity-log entries for every transition', async () => {
    const { order } = await grpc.checkout.createOrder(checkoutOrder({ customerId }), systemCaller(customerId));
    await grpc.checkout.recordPaymentResult({ orderId: order!.id, outcome: 'failed', transactionId: '', paymentMethod: '', paymentMethodTitle: '', message: 'Card declined' }, systemCaller());
    const failed = await waitFor(async () => {
      const found = (await published('order_failed', orders.OrderFailed.decode)).filter((m) => m.payload.orderId === order!.id);
      return found.length ? found : null;
    });
    expect(failed![0].payload).toMatchObject({ reservationId: order!.reservationId, reason: 'Card declined' });
    const activity = (await waitFor(async () => {
      const found = (await published('activity_logged', common.ActivityLogged.decode)).filter((m) => m.payload.orderId === order!.id);
      return found.length >= 2 ? found : null;
    }))!;
    for (const entry of activity) {
      expect(entry.payload.source).toBe('orders');
      const text = entry.payload.message + entry.payload.contextJson;
      expect(text).not.toContain('@');
      expect(text).not.toContain('Ada');
      expect(text).not.toContain('Lovelace');
    }
    expect(activity.some((a) => JSON.parse(a.payload.contextJson).to === 'failed')).toBe(true);
  });
});
