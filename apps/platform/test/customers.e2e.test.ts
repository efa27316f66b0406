import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

let stack: Platform;
let admin: ShopClient;
let customer: ShopClient;
let manager: ShopClient;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  customer = new ShopClient(stack.url);
  await customer.post('/shop/v1/auth/register', { email: 'buyer@example.com', password: 'password-1' });
  await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
});
afterAll(() => stack?.stop());

describe('permission tier: admin (manage_options)', () => {
  it('is 401 for guests, 403 for customers and shop managers', async () => {
    expectError(await new ShopClient(stack.url).get('/shop/v1/customer'), 401, 'shop_rest_forbidden_context');
    expectError(await customer.get('/shop/v1/customer'), 403, 'shop_rest_forbidden_context');
    expectError(await manager.get('/shop/v1/customer'), 403, 'shop_rest_forbidden_context');
    expectError(await customer.post('/shop/v1/customer', { email: 'x@example.com', username: 'x' }), 403, 'shop_rest_forbidden_context');
  });
});

describe('POST /customer', () => {
  it('creates a customer (201) with a generated password when omitted', async () => {
    const res = await admin.post('/shop/v1/customer', {
      email: 'alice@example.com',
      username: 'alice',
      first_name: 'Alice',
      last_name: 'Smith',
      billing: { city: 'Lyon', country: 'FR' },
      meta_data: [{ key: 'source', value: 'import' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      email: 'alice@example.com',
      username: 'alice',
      first_name: 'Alice',
      display_name: 'Alice Smith',
      roles: ['shop_customer'],
      billing: { city: 'Lyon', country: 'FR', address_1: '' },
      meta_data: [{ id: 1, key: 'source', value: 'import' }],
      stats: { total_orders: 0, total_spent: 0, total_downloads: 0 },
    });
    expect(res.body.date_created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(res.body._links.self[0].href).toBe(`${stack.url}/shop/v1/customer/${res.body.id}`);
    expect(res.body._links.collection[0].href).toBe(`${stack.url}/shop/v1/customer`);
  });

  it('refuses an id (rest_customer_exists), duplicates and bad input', async () => {
    expectError(await admin.post('/shop/v1/customer', { id: 5, email: 'b@example.com', username: 'b' }), 400, 'rest_customer_exists');
    expectError(await admin.post('/shop/v1/customer', { email: 'alice@example.com', username: 'alice2' }), 400, 'existing_user_email');
    expectError(await admin.post('/shop/v1/customer', { email: 'new@example.com', username: 'ALICE' }), 400, 'existing_user_login');
    expectError(await admin.post('/shop/v1/customer', { username: 'nomail' }), 400, 'rest_missing_callback_param');
    expectError(await admin.post('/shop/v1/customer', { email: 'bad', username: 'bad' }), 400, 'rest_invalid_param');
    expectError(await admin.post('/shop/v1/customer', { email: 'r@example.com', username: 'r', roles: ['king'] }), 400, 'rest_invalid_param');
    expectError(await admin.post('/shop/v1/customer', { email: 'r@example.com', username: ['r'] }), 400, 'rest_invalid_param');
  });
});

describe('GET /customer', () => {
  it('lists customers with pagination headers and links', async () => {
    for (const name of ['carol', 'dave', 'erin']) {
      await admin.post('/shop/v1/customer', { email: `${name}@example.com`, username: name });
    }
    const page1 = await admin.get('/shop/v1/customer?per_page=2&orderby=id&order=asc');
    expect(page1.status).toBe(200);
    expect(page1.body.map((c: { username: string }) => c.username)).toEqual(['buyer', 'alice']);
    expect(page1.headers.get('x-platform-total')).toBe('5');
    expect(page1.headers.get('x-platform-totalpages')).toBe('3');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.headers.get('link')).not.toContain('rel="prev"');
    const page2 = await admin.get('/shop/v1/customer?per_page=2&orderby=id&order=asc&page=2');
    expect(page2.headers.get('link')).toContain('rel="prev"');
    expect(page2.headers.get('link')).toContain('page=3');
  });

  it('filters by search, include, exclude and roles', async () => {
    expect((await admin.get('/shop/v1/customer?search=car')).body.map((c: { username: string }) => c.username)).toEqual(['carol']);
    const all = (await admin.get('/shop/v1/customer?orderby=id')).body;
    const ids = all.map((c: { id: number }) => c.id);
    const included = await admin.get(`/shop/v1/customer?include=${ids[2]},${ids[0]}&orderby=include`);
    expect(included.body.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[0]]);
    const excluded = await admin.get(`/shop/v1/customer?exclude[]=${ids[0]}`);
    expect(excluded.body.map((c: { id: number }) => c.id)).not.toContain(ids[0]);
    const managers = await admin.get('/shop/v1/customer?roles=shop_manager');
    expect(managers.body.map((c: { username: string }) => c.username)).toEqual(['manager']);
    const everyone = await admin.get('/shop/v1/customer?roles=all&per_page=100');
    expect(everyone.body.map((c: { username: string }) => c.username)).toContain('admin');
  });

  it('validates collection params', async () => {
    expectError(await admin.get('/shop/v1/customer?per_page=0'), 400, 'rest_invalid_param');
    expectError(await admin.get('/shop/v1/customer?per_page=101'), 400, 'rest_invalid_param');
    expectError(await admin.get('/shop/v1/customer?page=abc'), 400, 'rest_invalid_param');
    expectError(await admin.get('/shop/v1/customer?orderby=password'), 400, 'rest_invalid_param');
    const sqlish = await admin.get(`/shop/v1/customer?search=${encodeURIComponent("' or 1=1; drop table users; --")}`);
    expect(sqlish.status).toBe(200);
    expect(sqlish.body).toEqual([]);
  });

  it('trims meta_data with include_meta / exclude_meta', async () => {
    const created = await admin.post('/shop/v1/customer', {
      email: 'meta@example.com',
      username: 'meta',
      meta_data: [
        { key: 'a', value: 1 },
        { key: 'b', value: 2 },
      ],
    });
    const only = await admin.get(`/shop/v1/customer/${created.body.id}?include_meta=a`);
    expect(only.body.meta_data.map((m: { key: string }) => m.key)).toEqual(['a']);
    const without = await admin.get(`/shop/v1/customer/${created.body.id}?exclude_meta=a`);
    expect(without.body.meta_data.map((m: { key: string }) => m.key)).toEqual(['b']);
  });
});

describe('GET/PUT/DELETE /customer/<id>', () => {
  it('reads with context view and edit', async () => {
    const { body } = await admin.post('/shop/v1/customer', { email: 'ctx@example.com', username: 'ctx' });
    const view = await admin.get(`/shop/v1/customer/${body.id}`);
    expect(view.body.capabilities).toBeUndefined();
    const edit = await admin.get(`/shop/v1/customer/${body.id}?context=edit`);
    expect(edit.body.capabilities).toEqual({ read: true });
    expectError(await admin.get('/shop/v1/customer/999999'), 404);
    expectError(await admin.get('/shop/v1/customer/abc'), 400, 'rest_invalid_param');
  });

  it('updates writable fields and refuses a username change', async () => {
    const { body } = await admin.post('/shop/v1/customer', { email: 'upd@example.com', username: 'upd' });
    const res = await admin.put(`/shop/v1/customer/${body.id}`, {
      first_name: 'Up',
      shipping: { city: 'Oslo' },
      roles: ['shop_manager'],
      meta_data: [{ key: 'tier', value: 'gold' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: 'Up', roles: ['shop_manager'], shipping: { city: 'Oslo' } });
    expect(res.body.meta_data).toEqual([{ id: 1, key: 'tier', value: 'gold' }]);
    expectError(await admin.patch(`/shop/v1/customer/${body.id}`, { username: 'other' }), 400, 'rest_user_invalid_argument');
    expectError(await admin.patch(`/shop/v1/customer/${body.id}`, { email: 'alice@example.com' }), 400, 'existing_user_email');
    expectError(await admin.patch('/shop/v1/customer/999999', { first_name: 'x' }), 404);
  });

  it('deletes only with force=true and validates reassign', async () => {
    const { body } = await admin.post('/shop/v1/customer', { email: 'gone@example.com', username: 'gone' });
    expectError(await admin.delete(`/shop/v1/customer/${body.id}`), 501, 'rest_trash_not_supported');
    expect((await admin.get(`/shop/v1/customer/${body.id}`)).status).toBe(200);
    expectError(await admin.delete(`/shop/v1/customer/${body.id}?force=true&reassign=999999`), 400, 'rest_user_invalid_reassign');
    const res = await admin.delete(`/shop/v1/customer/${body.id}?force=true`);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: body.id, username: 'gone' } });
    expectError(await admin.get(`/shop/v1/customer/${body.id}`), 404);
  });
});

describe('OPTIONS /customer', () => {
  it('describes the collection and its item schema', async () => {
    const res = await admin.options('/shop/v1/customer');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('shop/v1');
    expect(res.body.methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(res.body.endpoints[0].args.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(res.body.schema.properties).toHaveProperty('email');
  });
});
