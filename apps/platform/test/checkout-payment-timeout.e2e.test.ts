import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Server, ServerCredentials, credentials, type ServiceError } from '@grpc/grpc-js';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { startService, type RunningService } from '@storefront/service-kit';
import { cartService } from '@storefront/cart';
import { cart } from '@storefront/proto/cart';
import { catalog } from '@storefront/proto/catalog';
import { payments } from '@storefront/proto/payments';
import { silentLogger, waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { US_ADDRESS } from './support/cart-seed';

/**
 * A payments call that times out during place is not "payments unreachable":
 * the real payments service ran the charge, only its answer came too late.
 * A second cart instance (same database) talks to payments through a gRPC
 * proxy that holds ProcessPayment answers until the test lets them go; the
 * order must stay pending (nothing compensated) and the retry must settle it
 * with the one attempt payments already recorded.
 */
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;
let slowCart: RunningService;
let proxy: Server;
let upstream: Client;
const channels: Channel[] = [];
const held: Array<() => void> = [];
let holdProcessPayment = true;

const service = (name: string) => stack.services.find((s) => s.name === name)!;

/** Forwards every method of `definition` to payments; ProcessPayment answers wait in `held` while holding. */
function forwarding(definition: Record<string, { path: string; requestSerialize: any; responseDeserialize: any }>) {
  const impl: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(definition)) {
    impl[name] = (call: { request: unknown; metadata: any }, callback: (err: ServiceError | null, res?: unknown) => void) => {
      upstream.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, call.request, call.metadata, (err, res) => {
        const answer = () => callback(err, res);
        if (holdProcessPayment && method.path.endsWith('/ProcessPayment')) held.push(answer);
        else answer();
      });
    };
  }
  return impl;
}

beforeAll(async () => {
  stack = await startStack({ CHECKOUT_RECOVERY_SECONDS: '0' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Mug', amount: '12.00', stock: 5 });

  upstream = new Client(service('payments').address, credentials.createInsecure());
  proxy = new Server();
  proxy.addService(payments.PaymentServiceService, forwarding(payments.PaymentServiceService as never) as never);
  proxy.addService(payments.PaymentGatewayServiceService, forwarding(payments.PaymentGatewayServiceService as never) as never);
  const port = await new Promise<number>((resolve, reject) =>
    proxy.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );

  // The stack's own cart instance, re-pointed at the proxy with a 5 s service deadline (its database, events, peers).
  const base = service('cart').config as unknown as Record<string, unknown>;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (['string', 'number', 'boolean'].includes(typeof v)) env[k] = String(v);
  for (const s of stack.services) env[`${s.name.toUpperCase()}_GRPC_ADDR`] = s.address;
  slowCart = await startService(cartService, {
    env: {
      ...env,
      GRPC_PORT: '0',
      METRICS_PORT: '-1',
      PAYMENTS_GRPC_ADDR: `127.0.0.1:${port}`,
      // Calls to payments (through the holding proxy) give up after 5 s; the test's own call allows 30.
      SERVICE_GRPC_DEADLINE_MS: '5000',
      CHECKOUT_RECOVERY_SECONDS: '0',
    },
    logger: silentLogger(),
  });
}, 120_000);

afterAll(async () => {
  held.splice(0).forEach((answer) => answer());
  await slowCart?.stop();
  proxy?.forceShutdown();
  upstream?.close();
  channels.forEach((c) => c.close());
  seed?.close();
  await stack?.stop();
}, 60_000);

const stockOf = async () => (await seed.products.getProduct({ id: mug.id, context: 'edit', ifNoneMatch: '' }, seed.caller)).product!.stockQuantity;

describe('payments times out during place', () => {
  it('keeps the order pending, and the retry settles it with the one charge payments made', async () => {
    const channel = openChannel('cart', slowCart.address, 30_000);
    channels.push(channel);
    const carts = bindClient(channel, cart.CartServiceService);
    const checkout = bindClient(channel, cart.CheckoutServiceService);
    const guest = anonymousCaller('timeout-test');
    const added = await carts.addItem({ session: { token: '' }, priceId: mug.prices[0].id, productId: 0, variationId: 0, quantity: 1, replaceCart: false }, guest);
    const session = { token: added.session!.token };
    const stockBefore = await stockOf();
    const fields = Object.fromEntries(Object.entries(US_ADDRESS).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? '1' : '0') : v]));
    const place = () => checkout.placeOrder({ session, fields, paymentMethod: 'cod', paymentPayloadJson: '', requestHash: 'same-body' }, guest);

    // First attempt: payments charges, but its answer is held past the cart's deadline.
    const first = await place().then(
      () => undefined,
      (err: { code: string; status: number; data: { order_id: number } }) => err,
    );
    expect(first).toMatchObject({ code: 'shop_payment_pending', status: 503 });
    const orderId = first!.data.order_id;
    expect(orderId).toBeGreaterThan(0);
    // Not "unreachable": nothing was given back, the order waits.
    expect(await stockOf()).toBe(stockBefore! - 1);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body).toMatchObject({ status: 'pending_payment' });
    const paymentsChannel = openChannel('payments', service('payments').address, 30_000);
    channels.push(paymentsChannel);
    const records = bindClient(paymentsChannel, payments.PaymentGatewayServiceService);
    const attempts = async () => (await records.getPayment({ orderId, orderKey: '' }, seed.caller)).payment!.attempts;
    expect(await attempts()).toHaveLength(1);

    // The late answer arrives (and is dropped); payments answers in time from now on.
    holdProcessPayment = false;
    held.splice(0).forEach((answer) => answer());

    // The customer's retry (same cart, same body) settles the same order: payments replays its attempt.
    const retry = await place();
    expect(retry.replayed).toBe(true);
    expect(retry.result).toMatchObject({ orderId, outcome: (await attempts())[0].outcome });
    expect(['paid', 'on_hold']).toContain(retry.result!.outcome);
    await waitFor(async () => (await admin.get(`/shop/v1/order/${orderId}`)).body.status !== 'pending_payment', 10_000, 100);
    expect((await admin.get(`/shop/v1/order/${orderId}`)).body.status).not.toBe('failed');
    expect(await attempts()).toHaveLength(1);
    expect(await stockOf()).toBe(stockBefore! - 1);
    // The cart was emptied by the placed order.
    expect((await carts.getCart({ session }, guest)).snapshot!.itemCount).toBe(0);
  }, 90_000);
});
