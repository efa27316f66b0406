import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OrderEvents } from '@storefront/domain-events/orders';
import { connectJetStream, envelopeHeaders, type EventTransport } from '@storefront/events';
import { catalog } from '@storefront/proto/catalog';
import { orders } from '@storefront/proto/orders';
import { silentLogger, statementsSent, waitFor } from '@storefront/testing';
import {
  createSimpleProduct,
  customer,
  failure,
  guest,
  manager,
  onetimePrice,
  rejection,
  startCatalog,
  variationInput,
  type CatalogClients,
} from './support';

let c: CatalogClients;
let publisher: EventTransport;

beforeAll(async () => {
  c = await startCatalog({ env: { RESERVATION_SWEEP_SECONDS: '1' } });
  const env = c.service.env;
  publisher = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM!,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX!,
    name: 'orders-publisher',
    logger: silentLogger(),
  });
});

afterAll(async () => {
  await publisher.close();
  await c.stop();
});

const line = (productId: number, quantity = 1, variationId = 0) => ({ productId, variationId, quantity });
const reserve = (reservationId: string, lines: catalog.StockLine[], ttlSeconds = 0) =>
  c.stock.reserveStock({ reservationId, lines, ttlSeconds }, customer);
const levelOf = async (productId: number) =>
  (await c.products.getProduct({ id: productId, context: 'edit', ifNoneMatch: '' }, manager)).product!.stockQuantity;
const history = async (productId: number, variationId = 0) =>
  (
    await c.stock.listStockMovements(
      catalog.ListStockMovementsRequest.fromPartial({ productId, variationId, perPage: 100 }),
      manager,
    )
  ).movements;

function publishOrderCancelled(payload: Parameters<typeof orders.OrderCancelled.fromPartial>[0], id = randomUUID()) {
  const event = OrderEvents.orderCancelled;
  return publisher.publish({
    subject: publisher.subjectFor(event.subject),
    data: event.codec.encode(orders.OrderCancelled.fromPartial(payload)).finish(),
    headers: envelopeHeaders({ id, type: event.type, occurredAt: new Date() }),
  });
}

/**
 * Resolves once every cancellation published so far has been handled: the
 * consumer takes the stream in order, one message at a time, so a last
 * cancellation whose effect shows means the ones before it are done (instead
 * of waiting a fixed time for something not to happen).
 */
async function afterEarlierCancellations(): Promise<void> {
  const marker = await createSimpleProduct(c, { title: `Marker ${randomUUID()}`, stock: 1 });
  const reservationId = `marker-${randomUUID()}`;
  await reserve(reservationId, [line(marker.id)]);
  await c.stock.commitReservation({ reservationId }, guest);
  await publishOrderCancelled({ orderId: 1_000_000 + marker.id, reservationId, lines: [line(marker.id)] });
  await waitFor(async () => (await levelOf(marker.id)) === 1, 20_000, 50);
}

describe('reservations under concurrency', () => {
  it('50 parallel reservations against 10 units: exactly 10 win, the level never goes below 0', async () => {
    const product = await createSimpleProduct(c, { title: 'Limited edition', stock: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => reserve(`race-${i}`, [line(product.id)])),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won.length).toBe(10);
    expect(new Set(lost.map((r) => r.reason.code))).toEqual(new Set(['shop_stock_insufficient']));
    expect(await levelOf(product.id)).toBe(0);
    const moves = await history(product.id);
    expect(moves.every((m) => m.quantityAfter >= 0 && m.delta === m.quantityAfter - m.quantityBefore)).toBe(true);
    expect(moves.reduce((sum, m) => sum + m.delta, 0)).toBe(0);
    expect(moves.filter((m) => m.reason === 'reserved').length).toBe(10);
  });

  it('two checkouts for the last unit: exactly one wins', async () => {
    const product = await createSimpleProduct(c, { title: 'Last one', stock: 1 });
    const results = await Promise.allSettled([
      reserve('last-a', [line(product.id)]),
      reserve('last-b', [line(product.id)]),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await levelOf(product.id)).toBe(0);
  });

  it('multi-line reservations taken in opposite orders never deadlock', async () => {
    const a = await createSimpleProduct(c, { title: 'Left', stock: 100 });
    const b = await createSimpleProduct(c, { title: 'Right', stock: 100 });
    const calls = Array.from({ length: 20 }, (_, i) =>
      reserve(`cross-${i}`, i % 2 ? [line(a.id, 2), line(b.id, 3)] : [line(b.id, 3), line(a.id, 2)]),
    );
    await Promise.all(calls);
    expect([await levelOf(a.id), await levelOf(b.id)]).toEqual([60, 40]);
  });

  it('is idempotent by reservation id, also for concurrent retries', async () => {
    const product = await createSimpleProduct(c, { title: 'Retried', stock: 5 });
    const [first, second] = await Promise.all([
      reserve('retry-1', [line(product.id, 2)]),
      reserve('retry-1', [line(product.id, 2)]),
    ]);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect(second.reservation!.expiresAt).toEqual(first.reservation!.expiresAt);
    const third = await reserve('retry-1', [line(product.id, 2)]);
    expect([third.replayed, third.reservation!.status]).toEqual([true, 'active']);
    expect(await levelOf(product.id)).toBe(3);
    expect(await failure(reserve('retry-1', [line(product.id, 1)]))).toEqual(['shop_reservation_conflict', 409]);
  });

  it('takes the usual reservation in one statement; one that needs judging leaves nothing behind and takes the checked path', async () => {
    // The reserving statement only (this file's sweeper runs its own transactions every second).
    const RESERVING = /^\s*with req \(/;
    const reservingStatements = async (work: () => Promise<unknown>) => (await statementsSent(RESERVING, work)).length;
    const stocked = await createSimpleProduct(c, { title: 'Stocked', stock: 100 });
    expect(await reservingStatements(() => reserve('usual', [line(stocked.id, 2)]))).toBe(1);
    expect(await levelOf(stocked.id)).toBe(98);
    // A backorder is no judgement either: one statement, the level goes below zero.
    const backordered = await createSimpleProduct(c, { title: 'Made to order', stock: 1, backordersAllowed: true });
    expect(await reservingStatements(() => reserve('backorder', [line(backordered.id, 3)]))).toBe(1);
    expect(await levelOf(backordered.id)).toBe(-2);
    // Refusals: the statement aborts itself (nothing taken), the transaction answers as it always did.
    const scarce = await createSimpleProduct(c, { title: 'Few', stock: 1 });
    const soldOut = await createSimpleProduct(c, { title: 'Gone', stockStatus: 'outofstock' });
    const refusals: Array<[string, catalog.StockLine[], [string, number]]> = [
      ['short', [line(stocked.id, 1), line(scarce.id, 2)], ['shop_stock_insufficient', 422]],
      ['unmanaged-sold-out', [line(soldOut.id)], ['shop_stock_insufficient', 422]],
      ['unknown', [line(stocked.id), line(2_000_000_000)], ['rest_post_invalid_id', 404]],
      ['variation-of-simple', [line(stocked.id, 1, 1)], ['shop_variation_invalid_id', 404]],
    ];
    for (const [id, lines, expected] of refusals) {
      let answer: [string, number] | undefined;
      expect(await reservingStatements(async () => (answer = await failure(reserve(id, lines))))).toBe(2);
      expect([id, answer]).toEqual([id, expected]);
    }
    expect([await levelOf(stocked.id), await levelOf(scarce.id)]).toEqual([98, 1]);
    // Crossing the low-stock threshold (2 by default) publishes stock_low: the checked path, which takes the units.
    const low = await createSimpleProduct(c, { title: 'Nearly gone', stock: 3 });
    expect(await reservingStatements(() => reserve('crossing', [line(low.id, 1)]))).toBe(2);
    expect(await levelOf(low.id)).toBe(2);
    // A retry of an id: the checked path replays it.
    expect(await reservingStatements(async () => expect((await reserve('usual', [line(stocked.id, 2)])).replayed).toBe(true))).toBe(2);
  });

  it('reserves all lines or none, naming the short ones', async () => {
    const plenty = await createSimpleProduct(c, { title: 'Plenty', stock: 10 });
    const scarce = await createSimpleProduct(c, { title: 'Scarce', stock: 1 });
    const err = await rejection(reserve('all-or-none', [line(plenty.id, 3), line(scarce.id, 2)]));
    expect([err.code, err.status]).toEqual(['shop_stock_insufficient', 422]);
    expect(err.data.lines).toEqual([
      { product_id: scarce.id, variation_id: 0, name: 'Scarce', requested: 2, available: 1 },
    ]);
    expect(err.message).toContain('Scarce');
    expect([await levelOf(plenty.id), await levelOf(scarce.id)]).toEqual([10, 1]);
    // The failed id was not recorded: once stock arrives, the same id can succeed.
    await c.stock.adjustStock(
      catalog.AdjustStockRequest.fromPartial({ productId: scarce.id, action: 'add', quantity: 1 }),
      manager,
    );
    expect((await reserve('all-or-none', [line(plenty.id, 3), line(scarce.id, 2)])).replayed).toBe(false);
  });

  it('reserves variations, lets unmanaged products through, and refuses out-of-stock ones', async () => {
    const { product } = await c.products.createProduct(
      {
        fields: catalog.ProductFields.fromPartial({
          title: 'Cap',
          status: 'publish',
          productType: 'variable',
          manageStock: true,
          prices: { items: [onetimePrice('9.00')] },
          variations: { items: [variationInput({ color: 'Black' }, { stockQuantity: 2 })] },
        }),
      },
      manager,
    );
    const black = product!.variations[0];
    const unlimited = await createSimpleProduct(c, { title: 'Service' });
    const soldOut = await createSimpleProduct(c, { title: 'Sold out', stockStatus: 'outofstock' });
    const res = await reserve('mixed', [line(product!.id, 2, black.id), line(unlimited.id, 99)]);
    expect(res.reservation!.lines).toHaveLength(2);
    expect((await history(product!.id, black.id)).map((m) => [m.reason, m.quantityAfter, m.reservationId])).toEqual([
      ['reserved', 0, 'mixed'],
      ['initial', 2, ''],
    ]);
    expect(await failure(reserve('sold-out', [line(soldOut.id)]))).toEqual(['shop_stock_insufficient', 422]);
    expect(await failure(reserve('no-variation', [line(product!.id, 1)]))).toEqual(['shop_variation_invalid_id', 404]);
  });

  it('rejects bad reservation requests with 4xx', async () => {
    const product = await createSimpleProduct(c, { title: 'Valid', stock: 5 });
    expect(await failure(reserve('bad-qty', [line(product.id, 0)]))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('neg-qty', [line(product.id, -4)]))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('empty', []))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('', [line(product.id)]))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('x'.repeat(101), [line(product.id)]))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve("'; drop table x; --", [line(product.id)]))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('too-long-ttl', [line(product.id)], 10 ** 9))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(reserve('ghost', [line(987654)]))).toEqual(['rest_post_invalid_id', 404]);
    expect(await levelOf(product.id)).toBe(5);
  });
});

describe('reservation lifecycle', () => {
  it('commits once; a committed reservation cannot be released', async () => {
    const product = await createSimpleProduct(c, { title: 'Paid', stock: 4 });
    await reserve('pay-1', [line(product.id, 3)]);
    expect((await c.stock.commitReservation({ reservationId: 'pay-1' }, guest)).reservation!.status).toBe('committed');
    expect((await c.stock.commitReservation({ reservationId: 'pay-1' }, guest)).reservation!.status).toBe('committed');
    expect(await failure(c.stock.releaseReservation({ reservationId: 'pay-1', reason: '' }, guest))).toEqual([
      'shop_reservation_committed',
      409,
    ]);
    expect(await levelOf(product.id)).toBe(1);
    expect(await failure(c.stock.commitReservation({ reservationId: 'never-made' }, guest))).toEqual([
      'shop_reservation_not_found',
      404,
    ]);
  });

  it('releases once, giving the units back; a released reservation cannot be committed', async () => {
    const product = await createSimpleProduct(c, { title: 'Abandoned', stock: 4 });
    await reserve('cart-1', [line(product.id, 3)]);
    const released = await c.stock.releaseReservation({ reservationId: 'cart-1', reason: 'payment_failed' }, guest);
    expect(released.reservation!.status).toBe('released');
    await c.stock.releaseReservation({ reservationId: 'cart-1', reason: '' }, guest);
    expect(await levelOf(product.id)).toBe(4);
    expect((await history(product.id)).map((m) => m.reason)).toEqual(['payment_failed', 'reserved', 'initial']);
    expect(await failure(c.stock.commitReservation({ reservationId: 'cart-1' }, guest))).toEqual([
      'shop_reservation_not_active',
      409,
    ]);
  });

  it('renews a released reservation by taking its units again, checked; an active one only gets the later expiry', async () => {
    const product = await createSimpleProduct(c, { title: 'Paid again', stock: 3 });
    const renew = (reservationId: string) => c.stock.renewReservation({ reservationId, ttlSeconds: 600 }, guest);
    await reserve('again-1', [line(product.id, 2)], 60);
    const active = await renew('again-1');
    expect(active.renewed).toBe(false);
    expect(active.reservation!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 500_000);
    expect(await levelOf(product.id)).toBe(1);
    await c.stock.releaseReservation({ reservationId: 'again-1', reason: 'payment_failed' }, guest);
    // Someone else takes two of the three: the two it held are no longer there.
    await reserve('again-other', [line(product.id, 2)]);
    expect(await failure(renew('again-1'))).toEqual(['shop_stock_insufficient', 422]);
    expect(await levelOf(product.id)).toBe(1);
    await c.stock.releaseReservation({ reservationId: 'again-other', reason: '' }, guest);
    const renewed = await renew('again-1');
    expect(renewed).toMatchObject({ renewed: true, reservation: { status: 'active' } });
    expect(await levelOf(product.id)).toBe(1);
    expect((await history(product.id))[0]).toMatchObject({ reason: 'reserved', quantityBefore: 3, quantityAfter: 1 });
    await c.stock.commitReservation({ reservationId: 'again-1' }, guest);
    expect((await renew('again-1')).renewed).toBe(false);
    expect(await levelOf(product.id)).toBe(1);
    expect(await failure(renew('never-reserved'))).toEqual(['shop_reservation_not_found', 404]);
  });

  it("adjusts a reservation to an edited order's lines: held units follow (checked), a released one only records them", async () => {
    const product = await createSimpleProduct(c, { title: 'Edited', stock: 5 });
    const adjust = (reservationId: string, lines: catalog.StockLine[]) => c.stock.adjustReservation({ reservationId, lines }, guest);
    await reserve('edit-1', [line(product.id, 2)]);
    expect((await adjust('edit-1', [line(product.id, 4)])).reservation!.lines).toEqual([line(product.id, 4)]);
    expect(await levelOf(product.id)).toBe(1);
    // The same lines again change nothing; past the stock nothing changes.
    await adjust('edit-1', [line(product.id, 4)]);
    expect(await levelOf(product.id)).toBe(1);
    expect(await failure(adjust('edit-1', [line(product.id, 6)]))).toEqual(['shop_stock_insufficient', 422]);
    expect(await levelOf(product.id)).toBe(1);
    await adjust('edit-1', [line(product.id, 1)]);
    expect(await levelOf(product.id)).toBe(4);
    expect((await history(product.id)).slice(0, 2).map((m) => [m.reason, m.quantityBefore, m.quantityAfter])).toEqual([
      ['order_edited', 1, 4],
      ['order_edited', 3, 1],
    ]);
    // Released: the lines are recorded (what renewing takes), no units move.
    await c.stock.releaseReservation({ reservationId: 'edit-1', reason: '' }, guest);
    expect(await levelOf(product.id)).toBe(5);
    await adjust('edit-1', [line(product.id, 3)]);
    expect(await levelOf(product.id)).toBe(5);
    await c.stock.renewReservation({ reservationId: 'edit-1', ttlSeconds: 60 }, guest);
    expect(await levelOf(product.id)).toBe(2);
    expect(await failure(adjust('no-such-reservation', [line(product.id, 1)]))).toEqual(['shop_reservation_not_found', 404]);
  });

  it('expires reservations past their ttl in the periodic sweep', async () => {
    const product = await createSimpleProduct(c, { title: 'Timed', stock: 2 });
    await reserve('short-lived', [line(product.id, 2)], 1);
    expect(await levelOf(product.id)).toBe(0);
    await waitFor(async () => (await levelOf(product.id)) === 2, 6000, 100);
    expect((await history(product.id)).map((m) => m.reason)).toEqual(['expired', 'reserved', 'initial']);
    expect(await failure(c.stock.commitReservation({ reservationId: 'short-lived' }, guest))).toEqual([
      'shop_reservation_not_active',
      409,
    ]);
  });
});

describe('orders.order_cancelled', () => {
  it('restocks a committed order exactly once, whatever is redelivered', async () => {
    const product = await createSimpleProduct(c, { title: 'Returned', stock: 5 });
    await reserve('order-77', [line(product.id, 3)]);
    await c.stock.commitReservation({ reservationId: 'order-77' }, guest);
    const payload = {
      orderId: 77,
      reservationId: 'order-77',
      lines: [{ productId: product.id, variationId: 0, quantity: 3 }],
    };
    const eventId = randomUUID();
    await publishOrderCancelled(payload, eventId);
    await waitFor(async () => (await levelOf(product.id)) === 5, 5000, 50);
    // The same event again, and a second cancellation event for the same order.
    await publishOrderCancelled(payload, eventId);
    await publishOrderCancelled(payload);
    await afterEarlierCancellations();
    expect(await levelOf(product.id)).toBe(5);
    expect((await history(product.id)).map((m) => [m.reason, m.delta])).toEqual([
      ['order_cancelled', 3],
      ['reserved', -3],
      ['initial', 5],
    ]);
  });

  it('ignores cancellations of orders whose reservation it does not know', async () => {
    const product = await createSimpleProduct(c, { title: 'Untouched', stock: 5 });
    await publishOrderCancelled({
      orderId: 78,
      reservationId: 'unknown-reservation',
      lines: [{ productId: product.id, variationId: 0, quantity: 2 }],
    });
    await publishOrderCancelled({
      orderId: 79,
      reservationId: '',
      lines: [{ productId: product.id, variationId: 0, quantity: 2 }],
    });
    await afterEarlierCancellations();
    expect(await levelOf(product.id)).toBe(5);
  });
});
