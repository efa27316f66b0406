import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OrderEvents } from '@storefront/domain-events/orders';
import { catalog } from '@storefront/proto/catalog';
import { orders } from '@storefront/proto/orders';
import { OrderEventsPublisher } from './order-events';
import { createSimpleProduct, customer, failure, manager, startCatalog, type CatalogClients } from './support';

let c: CatalogClients;
let events: OrderEventsPublisher;

beforeAll(async () => {
  c = await startCatalog({ env: { RESERVATION_SWEEP_SECONDS: '0' } });
  events = await OrderEventsPublisher.connect(c.service.env);
});

afterAll(async () => {
  await events.close();
  await c.stop();
});

let n = 0;
const coupon = async (f: Partial<catalog.CouponFields> = {}) =>
  (
    await c.coupons.createCoupon(
      { fields: catalog.CouponFields.fromPartial({ title: `CODE${++n}-${randomUUID().slice(0, 6)}`, status: 'publish', amount: '5', ...f }) },
      manager,
    )
  ).coupon!;
const usageCount = async (id: number) =>
  (await c.coupons.getCoupon({ id, context: 'edit' }, manager)).coupon!.usageCount;
const redeem = (r: Partial<catalog.RedeemCouponsRequest>) =>
  c.coupons.redeemCoupons(catalog.RedeemCouponsRequest.fromPartial({ redemptionKey: randomUUID(), ...r }), customer);
const release = (r: Partial<catalog.ReleaseCouponsRequest>) =>
  c.coupons.releaseCoupons(catalog.ReleaseCouponsRequest.fromPartial(r), customer);
const levelOf = async (productId: number) =>
  (await c.products.getProduct({ id: productId, context: 'edit', ifNoneMatch: '' }, manager)).product!.stockQuantity;
const reasons = async (productId: number) =>
  (
    await c.stock.listStockMovements(catalog.ListStockMovementsRequest.fromPartial({ productId, perPage: 100 }), manager)
  ).movements.map((m) => [m.reason, m.delta]);

describe('RedeemCoupons', () => {
  it('20 concurrent checkouts against usage_limit 3: exactly 3 redeem, usage_count is 3', async () => {
    const limited = await coupon({ usageLimit: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => redeem({ customerId: 100 + i, codes: [limited.title.toLowerCase()] })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won.length).toBe(3);
    expect(new Set(lost.map((r) => `${r.reason.code}/${r.reason.status}`))).toEqual(new Set(['shop_coupon_invalid/422']));
    expect(lost[0].reason.message).toContain('usage limit');
    expect(await usageCount(limited.id)).toBe(3);
  });

  it('counts per-user limits by customer id and, for guests, by email', async () => {
    const once = await coupon({ usageLimitPerUser: 1 });
    await redeem({ customerId: 7, codes: [once.title] });
    expect(await failure(redeem({ customerId: 7, codes: [once.title] }))).toEqual(['shop_coupon_invalid', 422]);
    await redeem({ customerId: 0, email: 'Guest@Example.com', codes: [once.title] });
    expect(await failure(redeem({ customerId: 0, email: 'guest@example.com', codes: [once.title] }))).toEqual([
      'shop_coupon_invalid',
      422,
    ]);
    await redeem({ customerId: 8, codes: [once.title] });
    expect(await usageCount(once.id)).toBe(3);
  });

  it('is all or none: one code over its limit redeems nothing', async () => {
    const open = await coupon();
    const full = await coupon({ usageLimit: 1 });
    await redeem({ codes: [full.title] });
    const err = await failure(redeem({ customerId: 9, codes: [open.title, full.title] }));
    expect(err).toEqual(['shop_coupon_invalid', 422]);
    expect(await usageCount(open.id)).toBe(0);
    expect(await usageCount(full.id)).toBe(1);
    expect(await failure(redeem({ codes: ['no-such-code'] }))).toEqual(['shop_coupon_invalid', 422]);
    const draft = await coupon({ status: 'draft' });
    expect(await failure(redeem({ codes: [draft.title] }))).toEqual(['shop_coupon_invalid', 422]);
    expect(await failure(redeem({ redemptionKey: '', codes: [open.title] }))).toEqual(['rest_invalid_param', 400]);
  });

  it('is idempotent by redemption key; release gives the use back once', async () => {
    const one = await coupon({ usageLimit: 5 });
    const key = randomUUID();
    const first = await redeem({ redemptionKey: key, codes: [one.title, one.title.toLowerCase()] });
    expect(first).toEqual({ couponIds: [one.id], replayed: false });
    expect(await redeem({ redemptionKey: key, codes: [one.title] })).toEqual({ couponIds: [one.id], replayed: true });
    expect(await usageCount(one.id)).toBe(1);
    expect(await release({ redemptionKey: key })).toEqual({ released: 1 });
    expect(await release({ redemptionKey: key })).toEqual({ released: 0 });
    expect(await usageCount(one.id)).toBe(0);
    // After a release the same key redeems again (a new attempt of the checkout).
    expect(await redeem({ redemptionKey: key, codes: [one.title] })).toEqual({ couponIds: [one.id], replayed: false });
    expect(await usageCount(one.id)).toBe(1);
    expect(await failure(release({}))).toEqual(['rest_invalid_param', 400]);
  });
});

describe('order events', () => {
  const line = (productId: number, quantity: number) => ({ productId, variationId: 0, quantity });

  it('order_placed links the redemption to the order; order_failed releases coupons and stock once, even delivered twice', async () => {
    const product = await createSimpleProduct(c, { title: 'Failing order', stock: 5 });
    const limited = await coupon({ usageLimit: 10 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 2)], ttlSeconds: 0 }, customer);
    await redeem({ redemptionKey: `checkout-${sagaId}`, reservationId: sagaId, codes: [limited.title] });
    const placed = await events.publish(
      OrderEvents.orderPlaced,
      orders.OrderPlaced.fromPartial({ orderId: 501, reservationId: sagaId, couponCodes: [limited.title] }),
    );
    await events.handled('catalog.link_placed_orders', placed.seq);
    // The order id alone now finds the redemption.
    expect(await release({ orderId: 501 })).toEqual({ released: 1 });
    await redeem({ redemptionKey: `checkout-${sagaId}`, reservationId: sagaId, orderId: 501, codes: [limited.title] });
    expect(await usageCount(limited.id)).toBe(1);
    expect(await levelOf(product.id)).toBe(3);

    const failed = orders.OrderFailed.fromPartial({
      orderId: 501,
      reservationId: sagaId,
      couponCodes: [limited.title],
      lines: [line(product.id, 2)],
      reason: 'declined',
    });
    const eventId = randomUUID();
    const first = await events.publish(OrderEvents.orderFailed, failed, eventId);
    await events.handled('catalog.release_failed_orders', first.seq);
    expect(await levelOf(product.id)).toBe(5);
    expect(await usageCount(limited.id)).toBe(0);

    // The order uses the coupon again (a new attempt), then the same event arrives a second
    // time for real: only the inbox keeps it from releasing that new use.
    await redeem({ orderId: 501, codes: [limited.title] });
    await events.redeliver('catalog.release_failed_orders', OrderEvents.orderFailed, failed, eventId);
    expect(await usageCount(limited.id)).toBe(1);
    expect(await levelOf(product.id)).toBe(5);
    expect(await reasons(product.id)).toEqual([
      ['order_failed', 2],
      ['reserved', -2],
      ['initial', 5],
    ]);
  });

  it('an order_failed delivered after the failed order was paid again leaves the renewed stock and coupon uses alone', async () => {
    const product = await createSimpleProduct(c, { title: 'Paid again', stock: 5 });
    const limited = await coupon({ usageLimit: 10 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 2)], ttlSeconds: 0 }, customer);
    await redeem({ redemptionKey: `checkout-${sagaId}`, reservationId: sagaId, codes: [limited.title] });
    // The payment is declined: the checkout gives everything back and the order fails (its event
    // held up, say by a NATS outage); the customer pays again at once.
    await c.stock.releaseReservation({ reservationId: sagaId, reason: 'released' }, customer);
    await release({ redemptionKey: `checkout-${sagaId}` });
    const failedAt = new Date();
    await c.stock.renewReservation({ reservationId: sagaId, ttlSeconds: 600 }, customer);
    await redeem({ redemptionKey: `pay-${sagaId}`, reservationId: sagaId, orderId: 502, codes: [limited.title] });
    expect(await levelOf(product.id)).toBe(3);
    expect(await usageCount(limited.id)).toBe(1);

    const late = await events.publish(
      OrderEvents.orderFailed,
      orders.OrderFailed.fromPartial({ orderId: 502, reservationId: sagaId, lines: [line(product.id, 2)], reason: 'declined' }),
      randomUUID(),
      failedAt,
    );
    await events.handled('catalog.release_failed_orders', late.seq);
    expect(await levelOf(product.id)).toBe(3);
    expect(await usageCount(limited.id)).toBe(1);

    // A failure after the renewal gives them back as usual.
    const current = await events.publish(
      OrderEvents.orderFailed,
      orders.OrderFailed.fromPartial({ orderId: 502, reservationId: sagaId, lines: [line(product.id, 2)], reason: 'declined' }),
    );
    await events.handled('catalog.release_failed_orders', current.seq);
    expect(await levelOf(product.id)).toBe(5);
    expect(await usageCount(limited.id)).toBe(0);
  });

  it('order_paid commits the reservation once, even delivered twice', async () => {
    const product = await createSimpleProduct(c, { title: 'Paid order', stock: 4 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 1)], ttlSeconds: 0 }, customer);
    const paid = orders.OrderPaid.fromPartial({ orderId: 601, reservationId: sagaId, lines: [line(product.id, 1)] });
    const eventId = randomUUID();
    const first = await events.publish(OrderEvents.orderPaid, paid, eventId);
    await events.handled('catalog.commit_paid_orders', first.seq);
    const replay = await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 1)], ttlSeconds: 0 }, customer);
    expect(replay.reservation!.status).toBe('committed');
    // The order is cancelled (restocked), then order_paid arrives a second time for real:
    // only the inbox keeps it from taking the units again.
    const cancelled = await events.publish(
      OrderEvents.orderCancelled,
      orders.OrderCancelled.fromPartial({ orderId: 601, reservationId: sagaId, lines: [line(product.id, 1)] }),
    );
    await events.handled('catalog.restock_cancelled_orders', cancelled.seq);
    await events.redeliver('catalog.commit_paid_orders', OrderEvents.orderPaid, paid, eventId);
    expect(await levelOf(product.id)).toBe(4);
    expect(await reasons(product.id)).toEqual([
      ['order_cancelled', 1],
      ['reserved', -1],
      ['initial', 4],
    ]);
  });

  it('order_paid after the saga committed the reservation needs no transaction, yet a redelivery after a cancellation takes nothing', async () => {
    const product = await createSimpleProduct(c, { title: 'Committed first', stock: 4 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 1)], ttlSeconds: 0 }, customer);
    expect((await c.stock.commitReservation({ reservationId: sagaId }, customer)).reservation!.status).toBe('committed');
    const paid = orders.OrderPaid.fromPartial({ orderId: 603, reservationId: sagaId, lines: [line(product.id, 1)] });
    const eventId = randomUUID();
    const first = await events.publish(OrderEvents.orderPaid, paid, eventId);
    await events.handled('catalog.commit_paid_orders', first.seq);
    const cancelled = await events.publish(
      OrderEvents.orderCancelled,
      orders.OrderCancelled.fromPartial({ orderId: 603, reservationId: sagaId, lines: [line(product.id, 1)] }),
    );
    await events.handled('catalog.restock_cancelled_orders', cancelled.seq);
    // The shortcut recorded the first delivery in the inbox: the second one cannot take the units again.
    await events.redeliver('catalog.commit_paid_orders', OrderEvents.orderPaid, paid, eventId);
    expect(await levelOf(product.id)).toBe(4);
    expect(await reasons(product.id)).toEqual([
      ['order_cancelled', 1],
      ['reserved', -1],
      ['initial', 4],
    ]);
  });

  it('order_paid for a reservation released before the payment takes the stock again (the sale happened)', async () => {
    const product = await createSimpleProduct(c, { title: 'Late payment', stock: 4 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 3)], ttlSeconds: 0 }, customer);
    await c.stock.releaseReservation({ reservationId: sagaId, reason: '' }, customer);
    expect(await levelOf(product.id)).toBe(4);
    const ack = await events.publish(
      OrderEvents.orderPaid,
      orders.OrderPaid.fromPartial({ orderId: 602, reservationId: sagaId }),
    );
    await events.handled('catalog.commit_paid_orders', ack.seq);
    expect(await levelOf(product.id)).toBe(1);
    expect((await reasons(product.id))[0]).toEqual(['order_paid', -3]);
  });

  it('order_cancelled releases the order coupon redemptions with the stock', async () => {
    const product = await createSimpleProduct(c, { title: 'Cancelled order', stock: 2 });
    const limited = await coupon({ usageLimit: 2 });
    const sagaId = `saga-${randomUUID()}`;
    await c.stock.reserveStock({ reservationId: sagaId, lines: [line(product.id, 1)], ttlSeconds: 0 }, customer);
    await redeem({ orderId: 701, codes: [limited.title] });
    await c.stock.commitReservation({ reservationId: sagaId }, customer);
    const ack = await events.publish(
      OrderEvents.orderCancelled,
      orders.OrderCancelled.fromPartial({ orderId: 701, reservationId: sagaId, lines: [line(product.id, 1)] }),
    );
    await events.handled('catalog.restock_cancelled_orders', ack.seq);
    expect(await usageCount(limited.id)).toBe(0);
    expect(await levelOf(product.id)).toBe(2);
  });
});
