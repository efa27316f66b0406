import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

let stack: Platform;
let admin: ShopClient;
let guest: ShopClient;

beforeAll(async () => {
  stack = await startStack({ GRPC_DEADLINE_MS: '1500' });
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  guest = new ShopClient(stack.url);
});
afterAll(() => stack?.stop());

describe('errors', () => {
  it('unknown routes and methods answer 404 rest_no_route', async () => {
    expectError(await guest.get('/shop/v1/nothing-here'), 404, 'rest_no_route');
    expectError(await guest.get('/elsewhere'), 404, 'rest_no_route');
    expectError(await guest.request('DELETE', '/shop/v1/auth/login'), 404, 'rest_no_route');
  });

  it('malformed JSON, oversized and non-JSON bodies are clean 4xx; the service keeps answering', async () => {
    const bad = await guest.post('/shop/v1/auth/login', undefined, { raw: '{"username": "x",' });
    expectError(bad, 400, 'rest_invalid_json');
    const huge = await guest.post('/shop/v1/auth/login', undefined, { raw: JSON.stringify({ username: 'x'.repeat(1024 * 1024), password: 'y' }) });
    expectError(huge, 413);
    const text = await guest.post('/shop/v1/auth/login', undefined, { raw: 'username=x', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415);
    const arrayBody = await guest.post('/shop/v1/auth/login', [1, 2]);
    expectError(arrayBody, 400, 'rest_invalid_param');
    expect((await guest.get('/healthz')).status).toBe(200);
  });

  it('an empty JSON body counts as no fields', async () => {
    const res = await guest.post('/shop/v1/auth/login', undefined, { raw: '' , headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'rest_missing_callback_param');
    expect(res.body.data.params).toEqual(['username', 'password']);
  });

  it('never leaks stacks or SQL', async () => {
    const res = await admin.get(`/shop/v1/customer?search=${encodeURIComponent("'; select pg_sleep(1); --")}`);
    expect(res.status).toBe(200);
    const weird = await admin.get('/shop/v1/customer/99999999999999999999');
    expectError(weird, 400, 'rest_invalid_param');
    expect(JSON.stringify(weird.body)).not.toMatch(/at .*\.ts|select |Error:/i);
  });
});

describe('publishable-key carriers with an unknown key (embed addon on)', () => {
  it('are denied on cart and checkout routes', async () => {
    expectError(await guest.get('/shop/v1/cart', { headers: { 'x-shop-pk': 'pk_test' } }), 401, 'shop_pk_invalid');
    expectError(await guest.get('/shop/v1/cart?pk=pk_test'), 401, 'shop_pk_invalid');
    expectError(await guest.get('/shop/v1/checkout/state', { headers: { 'x-shop-embed-key': 'pk_test' } }), 401, 'shop_pk_invalid');
    expectError(await guest.post('/shop/v1/checkout/update', {}, { headers: { 'x-shop-pk': 'pk_x' } }), 401, 'shop_pk_invalid');
  });
});

describe('discovery', () => {
  it('serves the OpenAPI 3.1 document generated from the route schemas, and the docs page', async () => {
    const doc = await guest.get('/shop/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths).toHaveProperty('/shop/v1/customer');
    expect(doc.body.paths['/shop/v1/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
    const docs = await guest.get('/docs/');
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('<html');
  });

  it('indexes the namespace and echoes the request id', async () => {
    const index = await guest.get('/shop/v1', { headers: { 'x-request-id': 'req-123' } });
    expect(index.body.namespace).toBe('shop/v1');
    expect(Object.keys(index.body.routes)).toContain('/shop/v1/customer/:id');
    expect(index.headers.get('x-request-id')).toBe('req-123');
  });
});

describe('health and failure of a backing service', () => {
  it('/healthz and /readyz report the platform ready', async () => {
    expect((await guest.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await guest.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.services).toMatchObject({ customers: 'SERVING', events: 'SERVING' });
  });

  it('answers 503 in the error format within the deadline when a service is down, and /readyz names it', async () => {
    await stack.services.find((s) => s.name === 'customers')!.stop();
    const started = Date.now();
    const res = await guest.post('/shop/v1/auth/login', { username: 'a', password: 'b' });
    expectError(res, 503, 'shop_service_unavailable');
    expect(Date.now() - started).toBeLessThan(3000);
    // The gateway stays in rotation (other services' routes still work) and names the one that is down.
    const ready = await guest.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'degraded', down: ['customers'] });
    expect(ready.body.services.customers).not.toBe('SERVING');
    const strict = await guest.get('/readyz?strict=1');
    expectError(strict, 503, 'shop_not_ready');
    expect(strict.body.message).toContain('customers');
  });
});
