import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager, type ConsumerInfo, type JetStreamManager } from '@nats-io/jetstream';
import { orders } from '@storefront/proto/orders';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

// The subscriptions addon (spec 2.4, 3, 4.10, 4.11): a paid order with
// subscription-priced lines starts one subscription per billing schedule
// (asynchronously, from order_paid); the customer reads and moves their own
// (me/subscriptions), the administrator reads every one (subscription).

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let guest: ShopClient;
let nc: NatsConnection;
let jsm: JetStreamManager;

const MINE = '/shop/v1/me/subscriptions';
const ADMIN_SUBS = '/shop/v1/subscription';
const ORDERS = '/shop/v1/order';
const PRODUCTS = '/shop/v1/shop_product';
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const CARD = (card_number: string) => ({ card_number, exp_month: 12, exp_year: 2035, cvc: '123' });
const GOOD = CARD('4242424242424242');
const DECLINED = CARD('4000000000000002');

type Period = 'day' | 'week' | 'month' | 'year';
interface Plan {
  period: Period;
  interval: number;
  trial: number;
  amount: number;
}

// Price ids, created in beforeAll. A 10 % US sales tax applies to every line; nothing ships.
let monthly: number; // 20.00 every month
let monthlyToo: number; // 10.00 every month: the same schedule as `monthly`
let trialWeekly: number; // 15.00 every 2 weeks after a 14-day trial
let mug: number; // 5.00 once

/** Eleven distinct billing schedules (amounts 1.00 to 11.00): one order of them all starts eleven subscriptions. */
const SCHEDULES: Plan[] = [
  { period: 'day', interval: 1, trial: 0, amount: 1 },
  { period: 'day', interval: 10, trial: 0, amount: 2 },
  { period: 'week', interval: 1, trial: 0, amount: 3 },
  { period: 'week', interval: 3, trial: 0, amount: 4 },
  { period: 'month', interval: 2, trial: 0, amount: 5 },
  { period: 'month', interval: 3, trial: 0, amount: 6 },
  { period: 'month', interval: 6, trial: 0, amount: 7 },
  { period: 'year', interval: 1, trial: 0, amount: 8 },
  { period: 'year', interval: 2, trial: 0, amount: 9 },
  { period: 'day', interval: 1, trial: 3, amount: 10 },
  { period: 'month', interval: 1, trial: 30, amount: 11 },
];
let schedulePrices: number[] = [];

const SUMMARY_KEYS = [
  'id',
  'status',
  'total',
  'currency',
  'billing_period',
  'billing_interval',
  'start_date',
  'next_payment_date',
  'last_payment_date',
  'end_date',
  'trial',
  'trial_end_date',
  'payment_method',
  'parent_order_id',
];

beforeAll(async () => {
  stack = await startStack({ PAYMENT_RATE_LIMIT_ENABLED: 'false' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  const staff = await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  expect(staff.status).toBe(201);
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  guest = new ShopClient(stack.url);
  expect((await admin.post('/shop/v1/taxes', { country: 'US', rate: '10', name: 'US tax', shipping: true })).status).toBe(201);
  monthly = await product('Coffee club', plan({ period: 'month', interval: 1, trial: 0, amount: 20 }));
  monthlyToo = await product('Tea club', plan({ period: 'month', interval: 1, trial: 0, amount: 10 }));
  trialWeekly = await product('Flower box', plan({ period: 'week', interval: 2, trial: 14, amount: 15 }));
  mug = await product('Mug', { name: 'Standard', amount: 5, type: 'onetime' });
  schedulePrices = [];
  for (const [i, p] of SCHEDULES.entries()) schedulePrices.push(await product(`Plan ${i + 1}`, plan(p)));
  nc = await connect({ servers: stack.gateway.config.NATS_URL });
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  await nc?.close();
  await stack?.stop();
}, 60_000);

// ---------------------------------------------------------------------------
// Catalog, customers and checkout

function plan(p: Plan): Record<string, unknown> {
  return { name: 'Plan', amount: p.amount, type: 'subscription', billing_period: p.period, billing_interval: p.interval, trial_days: p.trial };
}

/** A published product that does not ship, with one price; returns the price id. */
async function product(title: string, price: Record<string, unknown>): Promise<number> {
  const res = await admin.post(PRODUCTS, { title, status: 'publish', shipping_required: false, prices: [price] });
  if (res.status !== 201) throw new Error(`product create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.prices[0].id;
}

interface Shopper {
  client: ShopClient;
  id: number;
  email: string;
}

let shoppers = 0;

/** A newly registered, logged-in customer. */
async function shopper(name = 'sub'): Promise<Shopper> {
  shoppers += 1;
  const email = `${name}-${shoppers}@example.com`;
  const client = new ShopClient(stack.url);
  const reg = await client.post('/shop/v1/auth/register', { email, password: 'password-1', auto_login: true });
  if (reg.status !== 200 && reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const me = await client.get('/shop/v1/me');
  if (me.status !== 200) throw new Error(`not logged in after registering: ${me.status}`);
  return { client, id: me.body.id, email };
}

const fieldsFor = (s: Shopper) => ({
  billing_first_name: 'Sam',
  billing_last_name: 'Subscriber',
  billing_address_1: '1 Main St',
  billing_city: 'Springfield',
  billing_state: 'IL',
  billing_postcode: '62701',
  billing_country: 'US',
  billing_email: s.email,
  billing_phone: '+1 555 0100',
});

async function addToCart(s: Shopper, lines: Array<[priceId: number, quantity: number]>): Promise<void> {
  for (const [price_id, quantity] of lines) {
    const res = await s.client.post('/shop/v1/cart/items', { price_id, quantity });
    if (res.status !== 200) throw new Error(`add failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

const place = (s: Shopper, card = GOOD) =>
  s.client.post('/shop/v1/checkout/place', { fields: fieldsFor(s), payment_method: 'test_card', payment_payload: card });

/** Buys `lines` with a good card; answers the paid order as the admin reads it. */
async function paidCheckout(s: Shopper, lines: Array<[priceId: number, quantity: number]>): Promise<Record<string, any>> {
  await addToCart(s, lines);
  const res = await place(s);
  if (res.status !== 200 || res.body.paid_status !== 'paid') throw new Error(`checkout not paid: ${res.status} ${JSON.stringify(res.body)}`);
  return orderOf(res.body.order_id);
}

async function orderOf(id: number): Promise<Record<string, any>> {
  const res = await admin.get(`${ORDERS}/${id}`);
  if (res.status !== 200) throw new Error(`order ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------
// Subscriptions over REST

/** The customer's whole list (one page of 100); throws unless 200. */
async function mySubscriptions(s: Shopper, query = ''): Promise<Array<Record<string, any>>> {
  const res = await s.client.get(`${MINE}?per_page=100${query}`);
  if (res.status !== 200) throw new Error(`GET ${MINE}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Until the paid order's subscriptions (at least `count`) are in the customer's list; by id. */
async function subscriptionsOf(s: Shopper, orderId: number, count: number): Promise<Array<Record<string, any>>> {
  // No use waiting for a route that does not exist (the addon is off).
  const probe = await s.client.get(MINE);
  if (probe.status === 404 && probe.body?.code === 'rest_no_route') throw new Error(`GET ${MINE} does not exist (rest_no_route)`);
  const found = await waitFor(
    async () => {
      const list = (await mySubscriptions(s)).filter((sub) => sub.parent_order_id === orderId);
      return list.length >= count ? list : null;
    },
    30_000,
    200,
  );
  return found!.sort((a, b) => a.id - b.id);
}

async function detail(s: Shopper, id: number): Promise<Record<string, any>> {
  const res = await s.client.get(`${MINE}/${id}`);
  if (res.status !== 200) throw new Error(`GET ${MINE}/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const total = (res: ShopResponse) => res.headers.get('x-platform-total');
const totalPages = (res: ShopResponse) => res.headers.get('x-platform-totalpages');
const withoutLinks = ({ _links, ...rest }: Record<string, any>) => rest;

const myLinks = (id: number) => ({ self: [{ href: `${stack.url}${MINE}/${id}` }], collection: [{ href: `${stack.url}${MINE}` }] });
const adminLinks = (id: number) => ({ self: [{ href: `${stack.url}${ADMIN_SUBS}/${id}` }], collection: [{ href: `${stack.url}${ADMIN_SUBS}` }] });

let owned: Promise<{ owner: Shopper; sub: Record<string, any> }> | undefined;

/** One customer's monthly subscription, shared by the tests that only read it or try others' hands on it. */
function ownedSubscription(): Promise<{ owner: Shopper; sub: Record<string, any> }> {
  owned ??= (async () => {
    const owner = await shopper('owner');
    const order = await paidCheckout(owner, [[monthly, 1]]);
    const [sub] = await subscriptionsOf(owner, order.id, 1);
    return { owner, sub };
  })();
  return owned;
}

// ---------------------------------------------------------------------------
// Dates: `YYYY-MM-DD HH:MM:SS`, UTC

const parseUtc = (s: string) => new Date(`${s.replace(' ', 'T')}Z`);
const format = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const addDays = (s: string, days: number) => format(new Date(parseUtc(s).getTime() + days * 86_400_000));
const day = (s: string) => s.slice(0, 10);
const shiftDay = (ymd: string, days: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * `s` plus whole calendar months, same time of day. The day of month is kept;
 * when the target month is shorter (a start on the 29th to 31st), both
 * readings are accepted: clamped to the month's last day, or rolled over.
 */
function addMonths(s: string, months: number): string[] {
  const d = parseUtc(s);
  const [y, m, dd] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  const [h, mi, se] = [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  const lastDay = new Date(Date.UTC(y, m + months + 1, 0)).getUTCDate();
  const clamped = new Date(Date.UTC(y, m + months, Math.min(dd, lastDay), h, mi, se));
  const rolled = new Date(Date.UTC(y, m + months, dd, h, mi, se));
  return [...new Set([format(clamped), format(rolled)])];
}

/** The accepted next_payment_date of a subscription started at `start` on plan `p`. */
function nextPayment(start: string, p: Pick<Plan, 'period' | 'interval' | 'trial'>): string[] {
  if (p.trial > 0) return [addDays(start, p.trial)];
  switch (p.period) {
    case 'day':
      return [addDays(start, p.interval)];
    case 'week':
      return [addDays(start, 7 * p.interval)];
    case 'month':
      return addMonths(start, p.interval);
    case 'year':
      return addMonths(start, 12 * p.interval);
  }
}

// ---------------------------------------------------------------------------
// Events: the stored order_paid of an order, a real second delivery of it

const subject = (event: string) => `${stack.gateway.config.EVENTS_SUBJECT_PREFIX}.orders.${event}.v1`;
const stream = () => stack.gateway.config.EVENTS_STREAM;

interface StoredEvent {
  seq: number;
  data: Uint8Array;
  headers: Record<string, string>;
}

/** The stored order_paid event of `orderId` (the newest first). */
async function orderPaidEvent(orderId: number): Promise<StoredEvent> {
  const found = await waitFor(
    async () => {
      const info = await jsm.streams.info(stream());
      for (let seq = info.state.last_seq; seq >= info.state.first_seq && seq > 0; seq--) {
        const msg = await jsm.streams.getMessage(stream(), { seq }).catch(() => null);
        if (!msg || msg.subject !== subject('order_paid')) continue;
        if (orders.OrderPaid.decode(msg.data).orderId !== orderId) continue;
        const headers: Record<string, string> = {};
        for (const key of msg.header?.keys() ?? []) headers[key] = msg.header!.get(key);
        return { seq, data: msg.data, headers };
      }
      return null;
    },
    30_000,
    200,
  );
  return found!;
}

/**
 * A real second delivery: the same stored event (same Shop-Event-Id, so the
 * same envelope id) published again under a new Nats-Msg-Id, so JetStream
 * stores and delivers it; only the consumer's inbox can drop it.
 */
async function redeliver(message: StoredEvent, event: string): Promise<number> {
  const h = natsHeaders();
  for (const [key, value] of Object.entries(message.headers)) h.set(key, value);
  const fresh = `${message.headers['Shop-Event-Id']}-again-${Date.now()}`;
  h.set('Nats-Msg-Id', fresh);
  const ack = await jetstream(nc).publish(subject(event), message.data, { msgID: fresh, headers: h });
  expect(ack.duplicate).toBe(false);
  return ack.seq;
}

/** NATS subject matching (`*` one token, `>` the rest). */
function subjectMatches(filter: string, target: string): boolean {
  const f = filter.split('.');
  const t = target.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return t.length > i;
    if (i >= t.length || (f[i] !== '*' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

/**
 * Until every acknowledging consumer of `event` on the stack's stream
 * (whatever its name, the subscriptions consumer among them) has handled
 * everything up to stream sequence `seq`.
 */
async function consumersCaughtUp(event: string, seq: number): Promise<void> {
  const target = subject(event);
  await waitFor(
    async () => {
      const info = await jsm.streams.info(stream());
      const consumers: ConsumerInfo[] = [];
      for await (const c of jsm.consumers.list(stream())) consumers.push(c);
      const filters = (c: ConsumerInfo) =>
        c.config.filter_subjects?.length ? c.config.filter_subjects : c.config.filter_subject ? [c.config.filter_subject] : ['>'];
      const relevant = consumers.filter((c) => c.config.ack_policy !== AckPolicy.None && filters(c).some((f) => subjectMatches(f, target)));
      // A filtered consumer's ack floor stops at its own last message (later messages of other
      // subjects never move it): caught up = nothing left to deliver and nothing unacknowledged.
      return info.state.last_seq >= seq && relevant.every((c) => c.num_pending === 0 && c.num_ack_pending === 0);
    },
    60_000,
    200,
  );
}

async function lastSeq(): Promise<number> {
  return (await jsm.streams.info(stream())).state.last_seq;
}

// ---------------------------------------------------------------------------

describe('a paid order starts its subscriptions (order_paid consumer)', () => {
  it('one active subscription per billing schedule, with the lines\' totals plus tax and the schedule\'s dates', async () => {
    const bea = await shopper('bea');
    // 2 x 20.00 + 10.00 monthly (one schedule), 15.00 every 2 weeks after a 14-day trial, a 5.00 mug; 10 % tax on all.
    const order = await paidCheckout(bea, [
      [monthly, 2],
      [monthlyToo, 1],
      [trialWeekly, 1],
      [mug, 1],
    ]);
    expect(order).toMatchObject({ customer_id: bea.id, paid_status: 'paid', total: 77 });
    expect(order.date_paid).toMatch(DATE_TIME);
    const paidAt: string = order.date_paid;
    expect(order.payment_method_title).toEqual(expect.any(String));
    expect(order.payment_method_title).not.toBe('');

    const subs = await subscriptionsOf(bea, order.id, 2);
    expect(subs).toHaveLength(2);
    const month = subs.find((s) => s.billing_period === 'month')!;
    const trial = subs.find((s) => s.billing_period === 'week')!;
    expect(month).toBeDefined();
    expect(trial).toBeDefined();
    expect(month.id).not.toBe(trial.id);

    expect(month).toEqual({
      id: expect.any(Number),
      status: 'active',
      // (40.00 + 10.00) + 10 % tax; the mug and the other schedule are not part of it.
      total: 55,
      currency: 'USD',
      billing_period: 'month',
      billing_interval: 1,
      start_date: paidAt,
      next_payment_date: expect.stringMatching(DATE_TIME),
      last_payment_date: paidAt,
      end_date: null,
      trial: false,
      trial_end_date: null,
      payment_method: order.payment_method_title,
      parent_order_id: order.id,
      _links: myLinks(month.id),
    });
    expect(Number.isInteger(month.id)).toBe(true);
    expect(nextPayment(paidAt, { period: 'month', interval: 1, trial: 0 })).toContain(month.next_payment_date);

    const trialEnd = addDays(paidAt, 14);
    expect(trial).toEqual({
      id: expect.any(Number),
      status: 'active',
      total: 16.5,
      currency: 'USD',
      billing_period: 'week',
      billing_interval: 2,
      start_date: paidAt,
      next_payment_date: trialEnd,
      last_payment_date: paidAt,
      end_date: null,
      trial: true,
      trial_end_date: trialEnd,
      payment_method: order.payment_method_title,
      parent_order_id: order.id,
      _links: myLinks(trial.id),
    });

    // The detail adds the related orders, the suspension count and the order's addresses.
    for (const sub of [month, trial]) {
      const d = await detail(bea, sub.id);
      expect(d).toMatchObject({
        ...sub,
        related_order_ids: [order.id],
        suspension_count: 0,
        billing_address: {
          first_name: 'Sam',
          last_name: 'Subscriber',
          address_1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          postcode: '62701',
          country: 'US',
          email: bea.email,
        },
        shipping_address: expect.any(Object),
      });
      expect(d.shipping_address).not.toBeNull();
      expect(Object.keys(d)).toEqual(expect.arrayContaining([...SUMMARY_KEYS, '_links']));
    }
  });

  it('every period (day, week, month, year), interval and trial gives its own next payment date', async () => {
    const s = await shopper('plans');
    const order = await paidCheckout(s, schedulePrices.map((p): [number, number] => [p, 1]));
    const subs = await subscriptionsOf(s, order.id, SCHEDULES.length);
    expect(subs).toHaveLength(SCHEDULES.length);
    for (const p of SCHEDULES) {
      const label = `${p.period} x${p.interval}, trial ${p.trial}`;
      // amount + 10 % tax identifies the plan.
      const sub = subs.find((x) => x.total === Math.round(p.amount * 110) / 100);
      expect([label, sub && { billing_period: sub.billing_period, billing_interval: sub.billing_interval, trial: sub.trial }]).toEqual([
        label,
        { billing_period: p.period, billing_interval: p.interval, trial: p.trial > 0 },
      ]);
      expect([label, sub!.start_date]).toEqual([label, order.date_paid]);
      expect([label, nextPayment(order.date_paid, p)]).toEqual([label, expect.arrayContaining([sub!.next_payment_date])]);
      expect([label, sub!.trial_end_date]).toEqual([label, p.trial > 0 ? addDays(order.date_paid, p.trial) : null]);
    }
  });

  it('a redelivered order_paid starts no second subscription', async () => {
    const s = await shopper('redelivery');
    const order = await paidCheckout(s, [[monthly, 1]]);
    const [sub] = await subscriptionsOf(s, order.id, 1);
    const paid = await orderPaidEvent(order.id);
    const seq = await redeliver(paid, 'order_paid');
    await consumersCaughtUp('order_paid', seq);
    const res = await s.client.get(MINE);
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.id)).toEqual([sub.id]);
    expect(total(res)).toBe('1');
    const everyone = await admin.get(`${ADMIN_SUBS}?per_page=100`);
    expect(everyone.body.filter((x: any) => x.parent_order_id === order.id)).toHaveLength(1);
  });

  it('a declined card starts none (the retry that pays starts one); a paid order without subscription lines starts none', async () => {
    const s = await shopper('declined');
    await addToCart(s, [[monthly, 1]]);
    const declined = await place(s, DECLINED);
    expectError(declined, 402, 'shop_payment_declined');
    const declinedId: number = declined.body.data.order_id;
    expect(declinedId).toBeGreaterThan(0);
    expect((await orderOf(declinedId)).status).toBe('failed');

    // Only one-time lines: paid, but nothing to subscribe to.
    const plain = await paidCheckout(await shopper('plain'), [[mug, 2]]);

    // The cart kept the line: the same checkout with a good card pays.
    const retry = await place(s);
    expect(retry.status).toBe(200);
    expect(retry.body.paid_status).toBe('paid');
    expect(retry.body.order_id).not.toBe(declinedId);
    const [sub] = await subscriptionsOf(s, retry.body.order_id, 1);
    expect(sub.status).toBe('active');

    // Everything published so far has been handled by every order_paid consumer.
    await consumersCaughtUp('order_paid', await lastSeq());
    const mine = await s.client.get(MINE);
    expect(mine.body.map((x: any) => x.parent_order_id)).toEqual([retry.body.order_id]);
    expect(total(mine)).toBe('1');
    const everyone = (await admin.get(`${ADMIN_SUBS}?per_page=100`)).body as Array<Record<string, any>>;
    expect(everyone.filter((x) => x.parent_order_id === declinedId)).toEqual([]);
    expect(everyone.filter((x) => x.parent_order_id === plain.id)).toEqual([]);
  });
});

describe('permission tier: logged-in (me/subscriptions)', () => {
  it('is 401 shop_rest_not_logged_in for guests on every route', async () => {
    const { sub } = await ownedSubscription();
    for (const res of [
      await guest.get(MINE),
      await guest.get(`${MINE}/${sub.id}`),
      await guest.post(`${MINE}/${sub.id}/cancel`),
      await guest.post(`${MINE}/${sub.id}/pause`),
      await guest.post(`${MINE}/${sub.id}/resume`),
    ]) {
      expectError(res, 401, 'shop_rest_not_logged_in');
    }
  });

  it("answers 404 shop_rest_subscription_invalid_id for another customer's subscription (admins too: me is the caller's own) and unknown ids", async () => {
    const { owner, sub } = await ownedSubscription();
    const other = await shopper('other');
    for (const client of [other.client, admin]) {
      expectError(await client.get(`${MINE}/${sub.id}`), 404, 'shop_rest_subscription_invalid_id');
      for (const action of ['cancel', 'pause', 'resume']) {
        expectError(await client.post(`${MINE}/${sub.id}/${action}`), 404, 'shop_rest_subscription_invalid_id');
      }
    }
    expect((await other.client.get(MINE)).body).toEqual([]);
    expect(total(await other.client.get(MINE))).toBe('0');
    // Nothing moved.
    expect(await detail(owner, sub.id)).toMatchObject({ status: 'active', suspension_count: 0, end_date: null });
    expectError(await owner.client.get(`${MINE}/999999`), 404, 'shop_rest_subscription_invalid_id');
    expectError(await owner.client.post(`${MINE}/999999/pause`), 404, 'shop_rest_subscription_invalid_id');
  });
});

describe('GET /me/subscriptions', () => {
  it("lists only the caller's own, newest first, 10 a page with pagination headers; per_page above 100 is clamped; status filter", async () => {
    const s = await shopper('lister');
    const first = await paidCheckout(s, [[monthly, 1]]);
    const [oldest] = await subscriptionsOf(s, first.id, 1);
    const second = await paidCheckout(s, schedulePrices.map((p): [number, number] => [p, 1]));
    await subscriptionsOf(s, second.id, SCHEDULES.length);
    await ownedSubscription(); // someone else's exists too

    const page1 = await s.client.get(MINE);
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(10);
    expect(total(page1)).toBe('12');
    expect(totalPages(page1)).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    for (const item of page1.body) expect(Object.keys(item).sort()).toEqual([...SUMMARY_KEYS, '_links'].sort());
    const page2 = await s.client.get(`${MINE}?page=2`);
    expect(page2.status).toBe(200);
    expect(page2.body).toHaveLength(2);
    expect(page2.headers.get('link')).toContain('rel="prev"');
    expect(page2.body[1].id).toBe(oldest.id);

    const ids = [...page1.body, ...page2.body].map((x: any) => x.id);
    expect(new Set(ids).size).toBe(12);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const parents = new Set([...page1.body, ...page2.body].map((x: any) => x.parent_order_id));
    expect([...parents].sort()).toEqual([first.id, second.id].sort());

    const clamped = await s.client.get(`${MINE}?per_page=500`);
    expect(clamped.status).toBe(200);
    expect(clamped.body.map((x: any) => x.id)).toEqual(ids);
    expect(totalPages(clamped)).toBe('1');
    const small = await s.client.get(`${MINE}?per_page=5&page=3`);
    expect(small.body.map((x: any) => x.id)).toEqual(ids.slice(10));
    expect(totalPages(small)).toBe('3');
    expect((await s.client.get(`${MINE}?page=9`)).body).toEqual([]);

    // Status filter.
    const paused = ids[3];
    expect((await s.client.post(`${MINE}/${paused}/pause`)).status).toBe(200);
    const held = await s.client.get(`${MINE}?status=on_hold`);
    expect(held.body.map((x: any) => x.id)).toEqual([paused]);
    expect(total(held)).toBe('1');
    const active = await s.client.get(`${MINE}?status=active&per_page=100`);
    expect(active.body.map((x: any) => x.id)).toEqual(ids.filter((id) => id !== paused));
    expect(total(active)).toBe('11');
    expect((await s.client.get(`${MINE}?status=pending_cancel`)).body).toEqual([]);
  });
});

describe('POST /me/subscriptions/<id>/cancel|pause|resume', () => {
  it('moves between active, on_hold and pending_cancel, answering the detail; refuses what the status does not allow (500 shop_rest_status_failed)', async () => {
    const s = await shopper('mover');
    const order = await paidCheckout(s, [[monthly, 1]]);
    const [sub] = await subscriptionsOf(s, order.id, 1);
    const url = (action: string) => `${MINE}/${sub.id}/${action}`;

    // active -> pause -> on_hold, suspended once.
    const paused = await s.client.post(url('pause'));
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: sub.id, status: 'on_hold', suspension_count: 1, end_date: null, related_order_ids: [order.id] });
    expect(paused.body._links).toEqual(myLinks(sub.id));
    expect(await detail(s, sub.id)).toEqual(paused.body);
    // Pause again: refused, nothing changes.
    expectError(await s.client.post(url('pause')), 500, 'shop_rest_status_failed');
    expect(await detail(s, sub.id)).toMatchObject({ status: 'on_hold', suspension_count: 1 });

    // on_hold -> resume -> active.
    const resumed = await s.client.post(url('resume'));
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: sub.id, status: 'active', suspension_count: 1, end_date: null });
    // Resume an active one: refused.
    expectError(await s.client.post(url('resume')), 500, 'shop_rest_status_failed');
    expect((await detail(s, sub.id)).status).toBe('active');

    // active -> cancel -> pending_cancel, ending at the next payment date.
    const before = await detail(s, sub.id);
    expect(before.next_payment_date).toMatch(DATE_TIME);
    const cancelled = await s.client.post(url('cancel'));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: sub.id, status: 'pending_cancel', end_date: before.next_payment_date, next_payment_date: null });
    expect(await detail(s, sub.id)).toEqual(cancelled.body);
    // Cancel again, or pause a pending cancellation: refused.
    expectError(await s.client.post(url('cancel')), 500, 'shop_rest_status_failed');
    expectError(await s.client.post(url('pause')), 500, 'shop_rest_status_failed');
    expect(await detail(s, sub.id)).toMatchObject({ status: 'pending_cancel', end_date: before.next_payment_date, suspension_count: 1 });

    // pending_cancel -> resume -> active, no end date.
    const back = await s.client.post(url('resume'));
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'active', end_date: null, next_payment_date: before.next_payment_date });

    // on_hold -> cancel -> pending_cancel; suspended twice in all.
    expect((await s.client.post(url('pause'))).body).toMatchObject({ status: 'on_hold', suspension_count: 2 });
    const next = (await detail(s, sub.id)).next_payment_date;
    const heldCancel = await s.client.post(url('cancel'));
    expect(heldCancel.status).toBe(200);
    expect(heldCancel.body).toMatchObject({ status: 'pending_cancel', suspension_count: 2, end_date: next });

    // The list and the admin see the same.
    const listed = (await mySubscriptions(s)).find((x) => x.id === sub.id)!;
    expect(listed).toMatchObject({ status: 'pending_cancel', end_date: next });
    expect((await admin.get(`${ADMIN_SUBS}/${sub.id}`)).body).toMatchObject({ status: 'pending_cancel', suspension_count: 2, end_date: next });
  });
});

describe('permission tier: admin (subscription, read-only)', () => {
  it('is 401 for guests and 403 for customers and shop managers (shop_rest_forbidden_context); there are no write routes', async () => {
    const { owner, sub } = await ownedSubscription();
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.get(ADMIN_SUBS),
      (c) => c.get(`${ADMIN_SUBS}/${sub.id}`),
      (c) => c.get(`${ADMIN_SUBS}/${sub.id}?context=edit`),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'shop_rest_forbidden_context');
      expectError(await call(owner.client), 403, 'shop_rest_forbidden_context');
      expectError(await call(manager), 403, 'shop_rest_forbidden_context');
      expect((await call(admin)).status).toBe(200);
    }
    expectError(await admin.post(ADMIN_SUBS, { customer_id: owner.id, billing_period: 'month' }), 404, 'rest_no_route');
    expectError(await admin.put(`${ADMIN_SUBS}/${sub.id}`, { status: 'on_hold' }), 404, 'rest_no_route');
    expectError(await admin.patch(`${ADMIN_SUBS}/${sub.id}`, { status: 'on_hold' }), 404, 'rest_no_route');
    expectError(await admin.delete(`${ADMIN_SUBS}/${sub.id}`), 404, 'rest_no_route');
    expect((await admin.get(`${ADMIN_SUBS}/${sub.id}`)).body.status).toBe('active');
  });
});

describe('GET /subscription', () => {
  it("lists every customer's subscriptions, 10 a page with pagination headers; per_page above 100 is 400", async () => {
    const { sub: someoneElses } = await ownedSubscription();
    const s = await shopper('many');
    const order = await paidCheckout(s, schedulePrices.map((p): [number, number] => [p, 1]));
    const theirs = await subscriptionsOf(s, order.id, SCHEDULES.length);

    const page1 = await admin.get(ADMIN_SUBS);
    expect(page1.status).toBe(200);
    const all = Number(total(page1));
    expect(all).toBeGreaterThanOrEqual(SCHEDULES.length + 1);
    expect(all).toBeLessThanOrEqual(100);
    expect(page1.body).toHaveLength(10);
    expect(totalPages(page1)).toBe(String(Math.ceil(all / 10)));
    expect(page1.headers.get('link')).toContain('rel="next"');
    const page2 = await admin.get(`${ADMIN_SUBS}?page=2&per_page=5`);
    expect(page2.body).toHaveLength(Math.min(5, all - 5));
    expect(page2.headers.get('link')).toContain('rel="prev"');
    expect(totalPages(page2)).toBe(String(Math.ceil(all / 5)));
    expect((await admin.get(`${ADMIN_SUBS}?page=1000`)).body).toEqual([]);
    // These lists page by `page` only: an `offset` is ignored, and so the links never step it.
    const offset = await admin.get(`${ADMIN_SUBS}?offset=3&per_page=5`);
    expect(offset.body.map((x: any) => x.id)).toEqual(page1.body.slice(0, 5).map((x: any) => x.id));
    expect(offset.headers.get('link')).toContain('page=2');
    expect(offset.headers.get('link')).not.toContain('offset=8');

    const everything = await admin.get(`${ADMIN_SUBS}?per_page=100`);
    expect(everything.body).toHaveLength(all);
    const ids = everything.body.map((x: any) => x.id);
    expect(new Set(ids).size).toBe(all);
    expect(ids).toEqual(expect.arrayContaining([someoneElses.id, ...theirs.map((x) => x.id)]));
    // An item is the summary the customer sees, with the admin route's links.
    const mine = theirs[0];
    const item = everything.body.find((x: any) => x.id === mine.id);
    expect(item).toMatchObject(withoutLinks(mine));
    expect(item._links).toEqual(adminLinks(mine.id));

    expectError(await admin.get(`${ADMIN_SUBS}?per_page=101`), 400, 'rest_invalid_param');
    expectError(await admin.get(`${ADMIN_SUBS}?per_page=500`), 400, 'rest_invalid_param');
  });

  it('filters on start_date with after / before (inclusive dates)', async () => {
    await ownedSubscription();
    const everything = await admin.get(`${ADMIN_SUBS}?per_page=100`);
    expect(everything.status).toBe(200);
    const all = Number(total(everything));
    expect(all).toBeGreaterThan(0);
    const days = (everything.body as Array<{ start_date: string }>).map((x) => day(x.start_date)).sort();
    const [first, last] = [days[0], days[days.length - 1]];
    const count = async (query: string) => {
      const res = await admin.get(`${ADMIN_SUBS}?per_page=100&${query}`);
      expect([query, res.status]).toEqual([query, 200]);
      expect([query, res.body.length]).toEqual([query, Number(total(res))]);
      return Number(total(res));
    };
    expect(await count(`after=${first}`)).toBe(all);
    expect(await count(`before=${last}`)).toBe(all);
    expect(await count(`after=${first}&before=${last}`)).toBe(all);
    expect(await count(`after=${last}&before=${last}`)).toBe(days.filter((d) => d === last).length);
    expect(await count(`before=${shiftDay(first, -1)}`)).toBe(0);
    expect(await count(`after=${shiftDay(last, 1)}`)).toBe(0);
    expectError(await admin.get(`${ADMIN_SUBS}?after=2026-13-01`), 400, 'rest_invalid_param');
  });
});

describe('GET /subscription/<id>', () => {
  it('answers the detail in the view (default) and edit contexts; unknown ids are 404', async () => {
    const { owner, sub } = await ownedSubscription();
    const customerView = withoutLinks(await detail(owner, sub.id));
    for (const url of [`${ADMIN_SUBS}/${sub.id}`, `${ADMIN_SUBS}/${sub.id}?context=view`, `${ADMIN_SUBS}/${sub.id}?context=edit`]) {
      const res = await admin.get(url);
      expect([url, res.status]).toEqual([url, 200]);
      expect(res.body).toMatchObject(customerView);
      expect(res.body._links).toEqual(adminLinks(sub.id));
    }
    expectError(await admin.get(`${ADMIN_SUBS}/999999`), 404);
    expectError(await admin.get(`${ADMIN_SUBS}/${sub.id}?context=full`), 400, 'rest_invalid_param');
  });
});
