import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { OrderEvents } from '@storefront/domain-events/orders';
import { orders } from '@storefront/proto/orders';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { createTestEvents, silentLogger, statementsSent, waitFor, type TestEvents } from '@storefront/testing';
import { readOrder, readOrderVersion, updateOrderIfUnchanged } from '../src/persistence/orders.repository';
import { ordersService } from '../src/service';

// The checkout's two writes to an order (create, then the gateway's answer)
// are single autocommit statements that carry their events: no transaction,
// and what they announce is exactly what they wrote.

/** Writes to the orders table and transaction control (the relay's outbox statements are left out). */
const ORDER_WRITES = /"orders"\."orders"|^\s*(begin|commit)\b/i;

let service: TestService;
let events: TestEvents;
let listener: EventTransport;
let channel: Channel;
let checkout: ReturnType<typeof bindClient<typeof orders.OrderCheckoutServiceService>>;
const placed: orders.OrderPlaced[] = [];
const paid: orders.OrderPaid[] = [];
const caller = anonymousCaller('checkout-writes');

beforeAll(async () => {
  events = createTestEvents();
  service = await startTestService(ordersService, { events });
  channel = openChannel('orders', service.address, 20_000);
  checkout = bindClient(channel, orders.OrderCheckoutServiceService);
  listener = await connectJetStream({
    url: events.env.NATS_URL,
    stream: events.env.EVENTS_STREAM,
    subjectPrefix: events.env.EVENTS_SUBJECT_PREFIX,
    name: 'orders-checkout-writes-test',
    logger: silentLogger(),
  });
  await listener.consume('checkout_writes_placed', listener.subjectFor(OrderEvents.orderPlaced.subject), async (m) => {
    placed.push(OrderEvents.orderPlaced.codec.decode(m.data));
  });
  await listener.consume('checkout_writes_paid', listener.subjectFor(OrderEvents.orderPaid.subject), async (m) => {
    paid.push(OrderEvents.orderPaid.codec.decode(m.data));
  });
}, 60_000);
afterAll(async () => {
  channel?.close();
  await listener?.close().catch(() => undefined);
  await service?.stop();
  await events?.cleanup();
}, 60_000);

const createRequest = (checkoutKey: string) =>
  orders.CreateOrderRequest.fromPartial({
    checkoutKey,
    status: 'pending_payment',
    currency: 'USD',
    paymentMethod: 'cod',
    lineItems: [1, 2].map((n) => ({ productId: n, priceId: n, name: `P${n}`, quantity: n, price: '1.00', subtotal: `${n}.00`, total: `${n}.00`, shippingRequired: true })),
    subtotal: '5.00',
    total: '5.00',
  });

describe('checkout writes', () => {
  it('creates an order in one statement with order_placed, which carries the ids it was written with', async () => {
    let created: orders.CreateOrderResponse | undefined;
    const sent = await statementsSent(ORDER_WRITES, async () => (created = await checkout.createOrder(createRequest('one-statement'), caller)));
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toContain('"orders"."outbox"');
    const order = created!.order!;
    await waitFor(async () => placed.some((e) => e.orderId === order.id), 10_000, 50);
    const event = placed.find((e) => e.orderId === order.id)!;
    expect(event.lines.map((l) => l.lineId)).toEqual(order.lineItems.map((l) => l.id));
    expect(event).toMatchObject({ orderKey: order.orderKey, status: 'pending_payment', total: '5.00' });
    // The same checkout key again: that order, nothing written.
    const again = await checkout.createOrder(createRequest('one-statement'), caller);
    expect(again.order!.id).toBe(order.id);
    expect(placed.filter((e) => e.orderId === order.id)).toHaveLength(1);
  });

  it('orders created side by side get distinct ids, drawn in blocks', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => checkout.createOrder(createRequest(`side-${i}`), caller)));
    const ids = created.map((c) => c.order!.id);
    expect(new Set(ids).size).toBe(40);
    const lineIds = created.flatMap((c) => c.order!.lineItems.map((l) => l.id));
    expect(new Set(lineIds).size).toBe(80);
  });

  it("records the gateway's answer for the order it just created as one write (no read), with order_paid; the same answer again writes nothing", async () => {
    const order = (await checkout.createOrder(createRequest('paid-once'), caller)).order!;
    const record = () =>
      checkout.recordPaymentResult(
        { orderId: order.id, outcome: 'paid', transactionId: 'cod_1', paymentMethod: 'cod', paymentMethodTitle: 'Cash on delivery', message: '' },
        caller,
      );
    let result: orders.RecordPaymentResultResponse | undefined;
    const sent = await statementsSent(ORDER_WRITES, async () => (result = await record()));
    expect(sent.map((s) => s.text.trim().slice(0, 6).toLowerCase())).toEqual(['with u']);
    expect(result!.order).toMatchObject({ status: 'processing', paidStatus: 'paid', transactionId: 'cod_1' });
    await waitFor(async () => paid.some((e) => e.orderId === order.id), 10_000, 50);
    expect(paid.find((e) => e.orderId === order.id)).toMatchObject({ transactionId: 'cod_1', status: 'processing' });
    const replay = await statementsSent(ORDER_WRITES, record);
    expect(replay.filter((s) => !/^\s*select/i.test(s.text))).toEqual([]);
  });

  it('an order changed since it was created here (the remembered version is stale) is recorded through the locked path', async () => {
    const order = (await checkout.createOrder(createRequest('changed-after-create'), caller)).order!;
    await service.db.reader.query(`update "orders"."orders" set customer_note = 'ring twice' where id = ?`, [order.id]);
    const res = await checkout.recordPaymentResult(
      { orderId: order.id, outcome: 'paid', transactionId: 'cod_2', paymentMethod: 'cod', paymentMethodTitle: 'Cash on delivery', message: '' },
      caller,
    );
    expect(res.order).toMatchObject({ status: 'processing', paidStatus: 'paid', transactionId: 'cod_2', customerNote: 'ring twice' });
    await waitFor(async () => paid.some((e) => e.orderId === order.id), 10_000, 50);
    expect(paid.filter((e) => e.orderId === order.id)).toHaveLength(1);
  });

  it('a write conditioned on a read the order has since moved past changes nothing', async () => {
    const order = (await checkout.createOrder(createRequest('stale-read'), caller)).order!;
    const stale = (await readOrderVersion(service.db.reader, order.id))!;
    // Another writer changes the order (a customer note) after that read.
    await service.db.reader.query(`update "orders"."orders" set customer_note = 'leave at the door' where id = ?`, [order.id]);
    const current = (await readOrderVersion(service.db.reader, order.id))!;
    const history = { fromStatus: 'pending_payment' as const, toStatus: 'on_hold' as const, byUserId: 0, cause: 'payment', note: '', changedAt: new Date() };
    const write = (read: { version: string }) =>
      updateOrderIfUnchanged(service.db.reader, { id: order.id, version: read.version }, { status: 'on_hold' }, history, new Date(), []);
    expect(await write(stale)).toBe(false);
    expect((await readOrder(service.db.reader, order.id))!.status).toBe('pending_payment');
    expect(await write(current)).toBe(true);
    expect((await readOrder(service.db.reader, order.id))!.status).toBe('on_hold');
  });
});
