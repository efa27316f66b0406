import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { statementsOf as countStatements, statementsSent } from '@storefront/testing';
import { ordersService } from '../src/service';

/** Statements over the order tables (not the outbox relay's or health checks'). */
const ORDER_TABLES = /"orders"\."order/;

// A list is one gRPC call and a bounded number of SQL statements whatever the
// page size: the statements every pg client runs in this process are counted.
// Its total comes from the counters a trigger keeps (order_counts): they
// follow every change of status, customer and every delete exactly.

let service: TestService;
let channel: Channel;
let checkout: ReturnType<typeof bindClient<typeof orders.OrderCheckoutServiceService>>;
let admin: ReturnType<typeof bindClient<typeof orders.OrderAdminServiceService>>;
let mine: ReturnType<typeof bindClient<typeof orders.CustomerOrderServiceService>>;
const CUSTOMER = 42;
const adminCaller = { ...anonymousCaller('t'), userId: 1, capabilities: ['manage_options'] };
const customerCaller = { ...anonymousCaller('t'), userId: CUSTOMER };

beforeAll(async () => {
  service = await startTestService(ordersService);
  channel = openChannel('orders', service.address, 20_000);
  checkout = bindClient(channel, orders.OrderCheckoutServiceService);
  admin = bindClient(channel, orders.OrderAdminServiceService);
  mine = bindClient(channel, orders.CustomerOrderServiceService);
  for (let i = 0; i < 120; i++) await createOrder(`k${i}`, CUSTOMER);
}, 120_000);
afterAll(async () => {
  channel?.close();
  await service?.stop();
}, 60_000);

function createOrder(checkoutKey: string, customerId: number) {
  return checkout.createOrder(
    orders.CreateOrderRequest.fromPartial({
      checkoutKey,
      status: 'pending_payment',
      customerId,
      currency: 'USD',
      lineItems: [1, 2, 3].map((n) => ({ productId: n, priceId: n, name: `P${n}`, quantity: n, price: '1.00', subtotal: `${n}.00`, total: `${n}.00` })),
      shippingLines: [{ methodId: 'flat_rate', instanceId: 1, rateId: 'flat_rate:1', label: 'Flat', total: '1.00', totalTax: '0.00' }],
      taxLines: [{ rateId: 1, label: 'Tax', rate: '0.0000', taxTotal: '0.00', shippingTaxTotal: '0.00' }],
      subtotal: '6.00',
      shippingTotal: '1.00',
      total: '7.00',
    }),
    anonymousCaller('seed'),
  );
}

const statementsOf = (work: () => Promise<unknown>) => countStatements(ORDER_TABLES, work);

const listRequest = (perPage: number, page = 1) =>
  orders.ListOrdersRequest.fromPartial({ page, perPage, orderby: 'date', order: 'desc' });

describe('list reads', () => {
  it('the admin list costs at most 2 statements for 5 or 100 orders with their lines, 1 for orders it has read at their version', async () => {
    let small: orders.ListOrdersResponse | undefined;
    let large: orders.ListOrdersResponse | undefined;
    // Cold: ids and versions, then the orders not read before.
    const few = await statementsOf(async () => (small = await admin.listOrders(listRequest(5), adminCaller)));
    const many = await statementsOf(async () => (large = await admin.listOrders(listRequest(100), adminCaller)));
    expect(small!.orders).toHaveLength(5);
    expect(large!.orders).toHaveLength(100);
    expect(large!.orders[99].lineItems).toHaveLength(3);
    expect(large!.orders[99].shippingLines).toHaveLength(1);
    expect(large!.total).toBe(120);
    expect(few).toBe(2);
    expect(many).toBe(2);
    // Warm: one statement, and the same orders.
    let again: orders.ListOrdersResponse | undefined;
    expect(await statementsOf(async () => (again = await admin.listOrders(listRequest(100), adminCaller)))).toBe(1);
    expect(again).toEqual(large);
    // Past the last page: one statement (the total rides along).
    const past = await statementsOf(() => admin.listOrders(listRequest(100, 50), adminCaller));
    expect(past).toBe(1);
  });

  it('serves what Postgres holds: an order changed by another writer (another replica) is read again', async () => {
    const first = (await admin.listOrders(listRequest(3), adminCaller)).orders[1];
    const db = new pg.Client({ connectionString: service.env.DATABASE_URL });
    await db.connect();
    try {
      // Lines and order row written together, as every writer does (replaceContent).
      await db.query('begin');
      await db.query(`update orders.order_line_items set name = 'Renamed' where order_id = $1`, [first.id]);
      await db.query(`update orders.orders set customer_note = 'changed elsewhere' where id = $1`, [first.id]);
      await db.query('commit');
    } finally {
      await db.end();
    }
    let page: orders.ListOrdersResponse | undefined;
    expect(await statementsOf(async () => (page = await admin.listOrders(listRequest(3), adminCaller)))).toBe(2);
    const changed = page!.orders[1];
    expect(changed.id).toBe(first.id);
    expect(changed.customerNote).toBe('changed elsewhere');
    expect(changed.lineItems.map((l) => l.name)).toEqual(['Renamed', 'Renamed', 'Renamed']);
    expect(page!.orders[0]).toEqual((await admin.listOrders(listRequest(3), adminCaller)).orders[0]);
  });

  it('a conditional read answers "not modified" in one statement while the page holds, and the new page once an order on it changes', async () => {
    const first = await admin.listOrders(listRequest(3), adminCaller);
    expect(first.etag).toMatch(/^[\w-]{20,}$/);
    let same: orders.ListOrdersResponse | undefined;
    const conditional = () => admin.listOrders({ ...listRequest(3), ifNoneMatch: first.etag }, adminCaller);
    expect(await statementsOf(async () => (same = await conditional()))).toBe(1);
    expect(same).toMatchObject({ notModified: true, etag: first.etag, orders: [], total: first.total });
    // Another page or another query never matches this page's ETag.
    expect((await admin.listOrders({ ...listRequest(3, 2), ifNoneMatch: first.etag }, adminCaller)).notModified).toBe(false);
    expect((await admin.listOrders({ ...listRequest(3), order: 'asc', ifNoneMatch: first.etag }, adminCaller)).notModified).toBe(false);

    await admin.updateOrder(orders.UpdateOrderRequest.fromPartial({ id: first.orders[2].id, customerNote: 'note for the conditional read' }), adminCaller);
    const changed = await conditional();
    expect(changed.notModified).toBe(false);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.orders.map((o) => o.id)).toEqual(first.orders.map((o) => o.id));
    expect(changed.orders[2].customerNote).toBe('note for the conditional read');
  });

  it("the customer's list likewise", async () => {
    await mine.listMyOrders({ page: 1, perPage: 5, statuses: [] }, customerCaller);
    const few = await statementsOf(() => mine.listMyOrders({ page: 1, perPage: 5, statuses: [] }, customerCaller));
    const many = await statementsOf(() => mine.listMyOrders({ page: 1, perPage: 100, statuses: [] }, customerCaller));
    expect(few).toBeLessThanOrEqual(2);
    expect(many).toBe(few);
    const res = await mine.listMyOrders({ page: 2, perPage: 100, statuses: [] }, customerCaller);
    expect(res.orders).toHaveLength(20);
    expect(res.total).toBe(120);
  });
});

describe('list totals', () => {
  const count = async (sql: string, params: unknown[] = []) => {
    const db = new pg.Client({ connectionString: service.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows;
    } finally {
      await db.end();
    }
  };
  const total = async (filters: Partial<orders.ListOrdersRequest>) =>
    (await admin.listOrders(orders.ListOrdersRequest.fromPartial({ page: 1, perPage: 1, ...filters }), adminCaller)).total;

  it('match the orders after status changes, customer changes and deletes', async () => {
    const ids = (await admin.listOrders(orders.ListOrdersRequest.fromPartial({ page: 1, perPage: 10, orderby: 'id', order: 'asc' }), adminCaller))
      .orders.map((o) => o.id);
    for (const id of ids.slice(0, 3)) await admin.updateOrder(orders.UpdateOrderRequest.fromPartial({ id, status: 'cancelled' }), adminCaller);
    for (const id of ids.slice(3, 5)) await admin.updateOrder(orders.UpdateOrderRequest.fromPartial({ id, customerId: 7 }), adminCaller);
    await admin.updateOrder(orders.UpdateOrderRequest.fromPartial({ id: ids[5], customerId: 8, status: 'cancelled' }), adminCaller);
    await admin.deleteOrder({ id: ids[6] }, adminCaller);

    expect(await total({})).toBe(119);
    expect(await total({ statuses: ['cancelled'] })).toBe(4);
    expect(await total({ statuses: ['cancelled', 'pending_payment'] })).toBe(119);
    expect(await total({ customerId: CUSTOMER })).toBe(116);
    expect(await total({ customerId: CUSTOMER, statuses: ['pending_payment'] })).toBe(113);
    expect(await total({ customerId: 7 })).toBe(2);
    expect(await total({ customerId: 8, statuses: ['cancelled'] })).toBe(1);
    expect(await total({ customerId: 8, statuses: ['pending_payment'] })).toBe(0);
    // A date filter counts the rows.
    expect(await total({ after: '2000-01-01', statuses: ['cancelled'] })).toBe(4);
    const mineNow = await mine.listMyOrders({ page: 1, perPage: 1, statuses: [] }, customerCaller);
    expect(mineNow.total).toBe(116);
    expect((await mine.listMyOrders({ page: 1, perPage: 1, statuses: ['cancelled'] }, customerCaller)).total).toBe(3);

    // Every counter, summed over its slots, is the count of its orders (-1: every customer).
    const counted = await count(
      `select customer_id::text, status, count(*)::int as n from orders.orders group by 1, 2
       union all select '-1', status, count(*)::int from orders.orders group by 2 order by 1, 2`,
    );
    const kept = await count(
      `select customer_id::text, status, sum(n)::int as n from orders.order_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`,
    );
    expect(kept).toEqual(counted);
  });

  it('a page past the end still carries the total', async () => {
    const res = await admin.listOrders(listRequest(100, 50), adminCaller);
    expect(res.orders).toHaveLength(0);
    expect(res.total).toBe(119);
  });

  it('summaries carry the list fields only', async () => {
    const res = await admin.listOrders(orders.ListOrdersRequest.fromPartial({ page: 1, perPage: 2, summary: true }), adminCaller);
    expect(res.orders).toHaveLength(2);
    const o = res.orders[0];
    expect(o).toMatchObject({ status: expect.any(String), currency: 'USD', total: '7.00', itemCount: 6, lineItems: [], orderKey: '' });
    expect(o.dateCreated).toBeInstanceOf(Date);
  });
});

describe("the customer's page", () => {
  it("reads the customer's index in order, not the date index past other customers' newer orders", async () => {
    // Guests' orders, all newer than the customer's, the customer holding most orders: walking the date
    // index backwards and filtering looks as cheap to the planner as the customer's index, and is not.
    for (let i = 0; i < 40; i++) await createOrder(`guest-${i}`, 0);
    const db = new pg.Client({ connectionString: service.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query('analyze orders.orders');
      const planOf = async (list: () => Promise<unknown>) => {
        // The page's statement (the admin list may read the orders themselves in a second one).
        const [page, ...others] = (await statementsSent(ORDER_TABLES, list)).filter((s) => s.text.startsWith('with page as'));
        expect(page).toBeDefined();
        expect(others).toHaveLength(0);
        return JSON.stringify((await db.query(`explain (format json) ${page.text}`, page.values)).rows);
      };
      const plan = await planOf(() => mine.listMyOrders({ page: 1, perPage: 10, statuses: [] }, customerCaller));
      expect(plan).toContain('orders_customer_date_idx');
      expect(plan).not.toContain('orders_date_id_idx');
      // The admin list of one customer by id, either way: read off the customer's (customer_id, id desc) index, no sort.
      for (const order of ['desc', 'asc']) {
        const byId = await planOf(() => admin.listOrders(orders.ListOrdersRequest.fromPartial({ page: 1, perPage: 10, customerId: CUSTOMER, orderby: 'id', order }), adminCaller));
        expect(byId).toContain('orders_customer_idx');
        expect(byId).not.toContain('"Node Type":"Sort"');
      }
    } finally {
      await db.end();
    }
  });
});
