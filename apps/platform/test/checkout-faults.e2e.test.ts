import { randomUUID, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@storefront/testing';
import { bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import { orders } from '@storefront/proto/orders';
import { payments } from '@storefront/proto/payments';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { US_ADDRESS } from './support/cart-seed';

/**
 * Faults on real processes: a cart instance that died mid-saga (its log left
 * open at a step) is finished or compensated by the recovery job; payments
 * unreachable during place is a clear 503 with nothing reserved.
 */
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;
const channels: Channel[] = [];

beforeAll(async () => {
  stack = await startStack({ CHECKOUT_RECOVERY_SECONDS: '1', CHECKOUT_RECOVERY_AFTER_SECONDS: '1', RESERVATION_SWEEP_SECONDS: '1' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Mug', amount: '10.00', stock: 10 });
});
afterAll(async () => {
  seed?.close();
  channels.forEach((c) => c.close());
  await stack?.stop();
}, 60_000);

const service = (name: string) => stack.services.find((s) => s.name === name)!;
const stockOf = async () => (await seed.products.getProduct({ id: mug.id, context: 'edit', ifNoneMatch: '' }, seed.caller)).product!.stockQuantity;

/**
 * A saga as a killed cart instance leaves it: stock reserved, maybe an order,
 * the log open at `step` (`pay` names the order; at `create_order` the order
 * may or may not have been created).
 */
async function interruptedSaga(
  step: 'pay' | 'redeem' | 'create_order',
  orderCreated = step === 'pay',
  options: { gateway?: 'cod' | 'bacs'; ttlSeconds?: number; loggedAfterMs?: number } = {},
) {
  const { gateway = 'cod', ttlSeconds = 600, loggedAfterMs = 0 } = options;
  const id = randomUUID();
  const key = createHash('sha256').update(id).digest('hex');
  const cat = openChannel('catalog', service('catalog').address, 15_000);
  const ord = openChannel('orders', service('orders').address, 15_000);
  channels.push(cat, ord);
  const lines = [{ productId: mug.id, variationId: 0, quantity: 1 }];
  await bindClient(cat, catalog.StockServiceService).reserveStock({ reservationId: id, lines, ttlSeconds }, seed.caller);
  const amounts = { subtotal: '10.00', discountTotal: '0.00', shippingTotal: '0.00', totalTax: '0.00', total: '10.00' };
  const order = { checkoutKey: key, draftOrderId: 0, status: 'pending_payment' as const, customerId: 0, currency: 'USD',
    billing: { first_name: 'Ada', last_name: 'L', company: '', address_1: '1 Main', address_2: '', city: 'X', state: 'IL', postcode: '62701', country: 'US', email: 'ada@example.com', phone: '' },
    shipping: { first_name: 'Ada', last_name: 'L', company: '', address_1: '1 Main', address_2: '', city: 'X', state: 'IL', postcode: '62701', country: 'US', email: '', phone: '' },
    customerNote: '', paymentMethod: gateway, paymentMethodTitle: gateway, reservationId: id, couponCodes: [],
    lineItems: [{ productId: mug.id, priceId: mug.prices[0].id, variationId: 0, name: 'Mug', quantity: 1, price: '10.00', subtotal: '10.00', discount: '0.00', tax: '0.00', total: '10.00', downloadable: false, shippingRequired: false, sku: '' }],
    shippingLines: [], couponLines: [], taxLines: [], ...amounts };
  let orderId = 0;
  let orderKey = '';
  if (orderCreated) {
    const created = await bindClient(ord, orders.OrderCheckoutServiceService).createOrder(
      orders.CreateOrderRequest.fromPartial({
        checkoutKey: key, status: 'pending_payment', currency: 'USD', paymentMethod: gateway, reservationId: id, createdVia: 'checkout',
        lineItems: [{ productId: mug.id, priceId: mug.prices[0].id, name: 'Mug', quantity: 1, price: '10.00', subtotal: '10.00', discount: '0.00', tax: '0.00', total: '10.00' }],
        ...amounts,
      }),
      seed.caller,
    );
    orderId = created.order!.id;
    orderKey = created.order!.orderKey;
  }
  const plan = { order, amount: '10.00', currency: 'USD', email: 'ada@example.com', customerId: 0, gatewayTitle: 'Cash on delivery', hasSubscription: false,
    stockLines: lines, couponCodes: [], checkoutUrl: 'http://127.0.0.1:8080/checkout/', returnUrl: '', clientIp: '' };
  // The request died this long after its reservation (recovery sees the log only from then on).
  await new Promise((resolve) => setTimeout(resolve, loggedAfterMs));
  const past = new Date(Date.now() - 3600_000);
  await service('cart').db.em().execute(
    `insert into "cart"."checkouts" (id, checkout_key, kind, cart_id, cart_revision, customer_id, request_hash, status, step, payment_method,
       order_id, order_key, plan, outcome, locked_until, created_at, updated_at)
     values (?, ?, 'place', null, 0, 0, 'x', 'open', ?, ?, ?, ?, ?::jsonb, null, null, ?, ?)`,
    [id, key, step, gateway, step === 'pay' ? orderId : 0, step === 'pay' ? orderKey : '', JSON.stringify(plan), past, past],
  );
  return { id, key, orderId };
}

async function sagaStatus(id: string): Promise<string> {
  const rows = await service('cart').db.em().execute<{ status: string }[]>(`select status from "cart"."checkouts" where id = ?`, [id]);
  return rows[0]?.status ?? '';
}

describe('checkout recovery (a cart killed mid-saga)', () => {
  it('killed after "order created", before the payment was recorded: the saga completes, one charge, stock sold', async () => {
    const before = await stockOf();
    const { id, orderId } = await interruptedSaga('pay');
    expect(await stockOf()).toBe(before! - 1);
    await waitFor(async () => (await sagaStatus(id)) === 'succeeded', 30_000, 200);
    const order = (await admin.get(`/shop/v1/order/${orderId}`)).body;
    expect(order).toMatchObject({ id: orderId, paid_status: 'paid' });
    expect(await stockOf()).toBe(before! - 1);
  }, 60_000);

  it('killed while payments was still charging under its key: the order stays pending until that attempt decides, then completes', async () => {
    const before = await stockOf();
    const { id, key, orderId } = await interruptedSaga('pay');
    // The attempt the killed request started (payments writes it before the gateway runs), with the request's payload.
    const payments = service('payments').db.em();
    await payments.execute(
      `insert into "payments"."payment_attempts" ("id", "order_id", "gateway_id", "amount_minor", "currency", "outcome",
         "idempotency_key", "fingerprint", "customer_id", "client_ip", "created_at", "updated_at")
       values (?, ?, 'cod', 1000, 'USD', 'processing', ?, 'fingerprint-of-the-lost-payload', 0, '', now(), now())`,
      [`pay_${id.slice(0, 8)}`, orderId, key],
    );
    // Recovery runs every second: a still-running charge is never compensated or charged again.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await sagaStatus(id)).toBe('open');
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body).toMatchObject({ status: 'pending_payment' });
    expect(await stockOf()).toBe(before! - 1);

    await payments.execute(`update "payments"."payment_attempts" set outcome = 'paid', transaction_id = 'cod-late' where idempotency_key = ?`, [key]);
    await waitFor(async () => (await sagaStatus(id)) === 'succeeded', 30_000, 200);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body).toMatchObject({ id: orderId, paid_status: 'paid', transaction_id: 'cod-late' });
    const attempts = await payments.execute<{ n: string }[]>(`select count(*) as n from "payments"."payment_attempts" where order_id = ?`, [orderId]);
    expect(Number(attempts[0].n)).toBe(1);
    expect(await stockOf()).toBe(before! - 1);
  }, 60_000);

  it('killed before its payment started, the order then paid another way: recovery records that payment and charges nothing', async () => {
    const before = await stockOf();
    const { id, orderId } = await interruptedSaga('pay');
    const channel = openChannel('payments', service('payments').address, 15_000);
    channels.push(channel);
    // The customer paid the pending order through pay-order (its own idempotency key) before recovery ran.
    const paid = await bindClient(channel, payments.PaymentServiceService).processPayment(
      payments.ProcessPaymentRequest.fromPartial({ orderId, gatewayId: 'cod', amount: '10.00', currency: 'USD', idempotencyKey: `pay-order-${id}` }),
      seed.caller,
    );
    expect(paid.outcome).toBe('paid');
    await waitFor(async () => (await sagaStatus(id)) === 'succeeded', 30_000, 200);
    const attempts = await service('payments').db.em().execute<{ n: string }[]>(
      `select count(*) as n from "payments"."payment_attempts" where order_id = ?`,
      [orderId],
    );
    expect(Number(attempts[0].n)).toBe(1);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body).toMatchObject({ id: orderId, paid_status: 'paid' });
    expect(await stockOf()).toBe(before! - 1);
  }, 60_000);

  it.each([true, false])('killed between logging create_order and pay (order created: %s): the one order of the key fails, the stock comes back, nothing is charged', async (orderCreated) => {
    const before = await stockOf();
    const { id, key } = await interruptedSaga('create_order', orderCreated);
    expect(await stockOf()).toBe(before! - 1);
    await waitFor(async () => (await sagaStatus(id)) === 'failed', 30_000, 200);
    const rows = await service('orders').db.em().execute<{ id: number; status: string }[]>(
      `select id, status from "orders"."orders" where checkout_key = ?`,
      [key],
    );
    expect(rows.map((r) => r.status)).toEqual(['failed']);
    const attempts = await service('payments').db.em().execute<{ n: string }[]>(`select count(*) as n from "payments"."payment_attempts" where order_id = ?`, [rows[0].id]);
    expect(Number(attempts[0].n)).toBe(0);
    expect(await stockOf()).toBe(before);
  }, 60_000);

  it('an on-hold order recovered after its reservation lapsed: the checkout completes, the order waits on hold, the units stay given back', async () => {
    const before = await stockOf();
    const { id, orderId } = await interruptedSaga('pay', true, { gateway: 'bacs', ttlSeconds: 1, loggedAfterMs: 1500 });
    await waitFor(async () => (await sagaStatus(id)) === 'succeeded', 30_000, 200);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body).toMatchObject({ id: orderId, status: 'on_hold' });
    // The lapsed reservation's units go back with the sweep, not twice.
    await waitFor(async () => (await stockOf()) === before, 15_000, 200);
  }, 60_000);

  it('killed before the order existed: the saga compensates and the stock comes back', async () => {
    const before = await stockOf();
    const { id } = await interruptedSaga('redeem');
    expect(await stockOf()).toBe(before! - 1);
    await waitFor(async () => (await sagaStatus(id)) === 'failed', 30_000, 200);
    expect(await stockOf()).toBe(before);
  }, 60_000);
});

describe('payments unreachable during place', () => {
  it('answers a clear 503, reserves nothing and keeps the cart', async () => {
    const c = new ShopClient(stack.url);
    await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 1 });
    const before = await stockOf();
    await service('payments').stop();
    const res = await c.post('/shop/v1/checkout/place', { fields: US_ADDRESS, payment_method: 'cod' });
    expectError(res, 503, 'shop_service_unavailable');
    expect(await stockOf()).toBe(before);
    expect((await c.get('/shop/v1/cart')).body.item_count).toBe(1);
    // The checkout page still renders, without gateways.
    const state = await c.get('/shop/v1/checkout/state');
    expect(state.status).toBe(200);
    expect(state.body.available_gateways).toEqual([]);
  }, 60_000);
});
