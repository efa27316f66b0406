import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { ordersService } from '../src/service';

// A list is one gRPC call and a bounded number of SQL statements whatever the
// page size: the statements every pg client runs in this process are counted.

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
  for (let i = 0; i < 120; i++) {
    await checkout.createOrder(
      orders.CreateOrderRequest.fromPartial({
        checkoutKey: `k${i}`,
        status: 'pending_payment',
        customerId: CUSTOMER,
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
}, 120_000);
afterAll(async () => {
  channel?.close();
  await service?.stop();
}, 60_000);

async function statementsOf(work: () => Promise<unknown>): Promise<number> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    // Only statements over the order tables: the outbox relay and health checks
    // run on their own schedule and would land in the window on a busy machine.
    if (/"orders"\."order/.test(text)) count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}

const listRequest = (perPage: number, page = 1) =>
  orders.ListOrdersRequest.fromPartial({ page, perPage, orderby: 'date', order: 'desc' });

describe('list reads', () => {
  it('the admin list costs the same (at most 2) statements for 5 or 100 orders with their lines', async () => {
    await admin.listOrders(listRequest(5), adminCaller); // warm the prepared statement
    let small: orders.ListOrdersResponse | undefined;
    let large: orders.ListOrdersResponse | undefined;
    const few = await statementsOf(async () => (small = await admin.listOrders(listRequest(5), adminCaller)));
    const many = await statementsOf(async () => (large = await admin.listOrders(listRequest(100), adminCaller)));
    expect(small!.orders).toHaveLength(5);
    expect(large!.orders).toHaveLength(100);
    expect(large!.orders[99].lineItems).toHaveLength(3);
    expect(large!.orders[99].shippingLines).toHaveLength(1);
    expect(large!.total).toBe(120);
    expect(few).toBeGreaterThan(0);
    expect(few).toBeLessThanOrEqual(2);
    expect(many).toBe(few);
    // Past the last page: one more statement counts the total.
    const past = await statementsOf(() => admin.listOrders(listRequest(100, 50), adminCaller));
    expect(past).toBeLessThanOrEqual(3);
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
