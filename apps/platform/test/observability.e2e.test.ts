import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import { OtlpReceiver, type ReceivedSpan } from '@storefront/telemetry/testing';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { US_ADDRESS, usShipping } from './support/cart-seed';

// Traces and metrics of a placed order (issue 14): the apps export spans to a
// real OTLP/HTTP receiver started here, and serve /metrics on ports of their own.
let receiver: OtlpReceiver;
let stack: Platform;
let admin: ShopClient;
let seed: CatalogAdmin;
let mug: catalog.Product;

const CARD = (card_number: string) => ({ card_number, exp_month: 12, exp_year: 2035, cvc: '987' });
const FIELDS = {
  ...US_ADDRESS,
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_email: 'ada.trace@example.org',
  billing_address_1: '1 Engine Street',
};
/** The services that consume `order_paid` (each has one durable consumer for it). */
const PRODUCT_ROUTE = '/shop/v1/shop_product/:id';
const ORDER_PAID_CONSUMERS = ['cart', 'catalog', 'customers', 'fulfillment'];

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, METRICS_PORT: '0', PAYMENT_RATE_LIMIT_ENABLED: 'false' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
  mug = await seed.simpleProduct({ title: 'Trace Mug', amount: '12.50', stock: 50 });
  await usShipping(admin, 5, { requires: 'coupon' });
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
  await receiver?.close();
});

async function customerWithCart(): Promise<ShopClient> {
  const c = new ShopClient(stack.url);
  const add = await c.post('/shop/v1/cart/items', { price_id: mug.prices[0].id, quantity: 1 });
  expect([add.status, add.status === 200 ? '' : add.body]).toEqual([200, '']);
  return c;
}

async function scrape(port: number): Promise<string[]> {
  expect(port).toBeGreaterThan(0);
  return (await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).split('\n');
}

/** Metric names a PromQL expression reads (the suffixes our metrics use; functions never end so). */
function metricNames(expr: string): string[] {
  return expr.match(/\b[a-z][a-z0-9_]*_(total|seconds_bucket|seconds_count|seconds|events|messages|up|bytes)\b/g) ?? [];
}

/** The value of the first sample of `name` whose labels include every `label="value"` given. */
function sample(lines: string[], name: string, labels: Record<string, string> = {}): number | undefined {
  const line = lines.find(
    (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
  );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

function metricsPort(service: string): number {
  return stack.services.find((s) => s.name === service)!.metricsPort;
}

describe('traces', () => {
  it('one trace spans a placed order: gateway -> cart -> catalog/orders/payments -> the order_paid consumers', async () => {
    const c = await customerWithCart();
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const paid = await c.post(
      '/shop/v1/checkout/place',
      { fields: FIELDS, payment_method: 'test_card', payment_payload: CARD('4242424242424242') },
      { headers: { traceparent: `00-${traceId}-${clientSpanId}-01` } },
    );
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ paid_status: 'paid' });

    // Consumers run after the relay published, and each app exports in its own
    // batches: wait until the request's span, every consumer's span and every
    // span's parent arrived.
    const complete = (spans: ReceivedSpan[]) =>
      spans.some((s) => s.service === 'gateway' && s.parentSpanId === clientSpanId) &&
      spans.every((s) => s.parentSpanId === clientSpanId || spans.some((p) => p.spanId === s.parentSpanId)) &&
      ORDER_PAID_CONSUMERS.every((svc) => spans.some((s) => s.service === svc && s.name === 'process orders.order_paid' && s.kind === 5));
    const spans = await waitFor(() => complete(receiver.trace(traceId)), 30_000, 100).then(
      () => receiver.trace(traceId),
      (err: Error) => Promise.reject(new Error(`${err.message}; the trace has: ${summary(receiver.trace(traceId))}; all spans: ${receiver.spans.length}`)),
    );

    const server = (service: string) => spans.filter((s) => s.service === service && s.kind === 2);
    const root = server('gateway').find((s) => s.name === 'POST /shop/v1/checkout/place');
    expect(root).toMatchObject({ parentSpanId: clientSpanId, attributes: expect.objectContaining({ 'http.response.status_code': 200 }) });
    // Each hop is a child of the previous one: gateway -> cart -> catalog, orders, payments.
    const cartPlace = server('cart').find((s) => spans.some((p) => p.spanId === s.parentSpanId && p.service === 'gateway' && p.kind === 3));
    expect(cartPlace).toBeDefined();
    const underCart = (service: string) =>
      server(service).some((s) => parentChain(spans, s).some((p) => p.spanId === cartPlace!.spanId));
    for (const service of ['catalog', 'orders', 'payments']) expect([service, underCart(service)]).toEqual([service, true]);

    // SQL statements of the services are in the trace, under their service's spans.
    const sql = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect([...new Set(sql.map((s) => s.service))]).toEqual(expect.arrayContaining(['cart', 'orders', 'payments']));
    expect(sql.every((s) => String(s.attributes['db.query.text']).length > 0)).toBe(true);

    // The event: orders' outbox publish span, and every consumer's span under it.
    const publish = spans.find((s) => s.service === 'orders' && s.name === 'publish orders.order_paid' && s.kind === 4);
    expect(publish).toBeDefined();
    for (const svc of ORDER_PAID_CONSUMERS) {
      const consumer = spans.find((s) => s.service === svc && s.name === 'process orders.order_paid');
      expect([svc, consumer?.parentSpanId]).toEqual([svc, publish!.spanId]);
    }

    // One tree: every span's parent is in the trace, except the root's (the caller's span).
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual(['POST /shop/v1/checkout/place']);
    expect(spans.filter((s) => s.status === 2)).toEqual([]);
  });

  it('a request without traceparent starts its own trace; probes are not traced', async () => {
    const res = await fetch(`${stack.url}/shop/v1/shop_product/${mug.id}`);
    expect(res.status).toBe(200);
    await fetch(`${stack.url}/readyz`);
    const span = await waitFor(() => receiver.spans.find((s) => s.service === 'gateway' && s.name === `GET ${PRODUCT_ROUTE}`), 10_000, 100);
    expect(span?.parentSpanId).toBe('');
    expect(receiver.spans.some((s) => s.name.includes('/readyz'))).toBe(false);
  });
});

describe('metrics', () => {
  it('the gateway histogram is labelled by route pattern and status, never the raw URL', async () => {
    await admin.get(`/shop/v1/shop_product/${mug.id}`);
    await admin.get('/shop/v1/shop_product/999999999');
    const lines = await scrape(stack.gateway.metricsPort);
    const route = PRODUCT_ROUTE;
    expect(sample(lines, 'http_server_request_duration_seconds_count', { method: 'GET', route, code: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(lines, 'http_server_request_duration_seconds_count', { method: 'GET', route, code: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(lines, 'http_server_request_duration_seconds_bucket', { route, code: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    expect(lines.some((l) => l.includes(`/shop_product/${mug.id}"`) || l.includes('999999999'))).toBe(false);
  });

  it('business counters: orders placed and paid, payments declined, consumer lag and parked events', async () => {
    const c = await customerWithCart();
    const declined = await c.post('/shop/v1/checkout/place', {
      fields: FIELDS,
      payment_method: 'test_card',
      payment_payload: CARD('4000000000000002'),
    });
    expectError(declined, 402, 'shop_payment_declined');
    const cod = await c.post('/shop/v1/checkout/place', { fields: FIELDS, payment_method: 'cod' });
    expect(cod.status).toBe(200);

    const payments = await scrape(metricsPort('payments'));
    expect(sample(payments, 'payments_processed_total', { gateway: 'test_card', outcome: 'declined' })).toBeGreaterThanOrEqual(1);
    expect(sample(payments, 'payments_processed_total', { gateway: 'test_card', outcome: 'paid' })).toBeGreaterThanOrEqual(1);

    // Counted when the relay published them (after the commit), so wait for the relay.
    const orders = await waitFor(async () => {
      const lines = await scrape(metricsPort('orders'));
      const published = (event: string) => sample(lines, 'events_published_total', { event: `orders.${event}` }) ?? 0;
      return published('order_placed') >= 3 && published('order_paid') >= 2 && published('order_failed') >= 1 ? lines : undefined;
    }, 15_000, 100).then((lines) => lines ?? []);
    expect(sample(orders, 'events_published_total', { event: 'orders.order_paid' })).toBeGreaterThanOrEqual(2);
    expect(sample(orders, 'events_published_total', { event: 'orders.order_failed' })).toBeGreaterThanOrEqual(1);
    expect(sample(orders, 'outbox_publish_delay_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(sample(orders, 'outbox_oldest_event_age_seconds')).toBeGreaterThanOrEqual(0);

    // Lag and parked figures per durable consumer; the lag drains to 0 once the consumer caught up.
    const lag = await waitFor(async () => {
      const lines = await scrape(metricsPort('catalog'));
      return sample(lines, 'events_consumer_pending_messages', { consumer: 'catalog.commit_paid_orders' }) === 0 ? lines : undefined;
    }, 15_000, 100).then((lines) => lines ?? []);
    expect(sample(lag, 'events_parked_messages', { consumer: 'catalog.commit_paid_orders' })).toBe(0);
  });
});

function summary(spans: ReceivedSpan[]): string {
  return spans.map((s) => `${s.service}:${s.kind}:${s.name.slice(0, 60)}`).join(', ');
}

describe('the Grafana dashboard', () => {
  it('queries only metrics the apps expose', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../../deploy/grafana/storefront.json', import.meta.url), 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const wanted = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr))));
    expect(wanted.size).toBeGreaterThan(10);
    const ports = [stack.gateway.metricsPort, ...stack.services.map((s) => s.metricsPort)];
    const exposed = new Set((await Promise.all(ports.map(scrape))).flat().map((l) => l.split(/[{ ]/)[0]));
    expect([...wanted].filter((name) => !exposed.has(name))).toEqual([]);
  });
});

/** The ancestors of `span` within the trace, nearest first. */
function parentChain(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let p = spans.find((s) => s.spanId === span.parentSpanId); p; p = spans.find((s) => s.spanId === p!.parentSpanId)) {
    chain.push(p);
  }
  return chain;
}
