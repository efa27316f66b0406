import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

let stack: Platform;
let admin: ShopClient;
let customer: ShopClient;
let guest: ShopClient;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  customer = new ShopClient(stack.url);
  const registered = await customer.post('/shop/v1/auth/register', { email: 'taxpayer@example.com', password: 'password-1' });
  expect(registered.status).toBe(200);
  guest = new ShopClient(stack.url);
});
afterAll(() => stack?.stop());

const TAXES = '/shop/v1/taxes';

/** 400 rest_invalid_param naming `field` in data.params. */
function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params)).toContain(field);
}

async function createRate(fields: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await admin.post(TAXES, fields);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('permission tier: admin (manage_options)', () => {
  it('is 401 for guests and 403 for customers on every route, 2xx for the admin', async () => {
    const rate = await createRate({ rate: '5', name: 'Matrix' });
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.get(TAXES),
      (c) => c.post(TAXES, { rate: '1' }),
      (c) => c.get(`${TAXES}/${rate.id}`),
      (c) => c.put(`${TAXES}/${rate.id}`, { name: 'x' }),
      (c) => c.patch(`${TAXES}/${rate.id}`, { name: 'x' }),
      (c) => c.delete(`${TAXES}/${rate.id}?force=true`),
      (c) => c.put(`${TAXES}/batch`, { create: [{ rate: '1' }] }),
      (c) => c.patch(`${TAXES}/batch`, { create: [{ rate: '1' }] }),
      (c) => c.post(`${TAXES}/batch`, { create: [{ rate: '1' }] }),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'shop_rest_forbidden_context');
      expectError(await call(customer), 403, 'shop_rest_forbidden_context');
    }
    for (const call of calls) expect((await call(admin)).status).toBeLessThan(300);
  });
});

describe('POST /taxes', () => {
  it('creates a rate (201) with the defaults of the contract', async () => {
    const res = await admin.post(TAXES, { country: 'fr', rate: '20', name: 'TVA' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/shop/v1/taxes/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      country: 'FR',
      state: '',
      postcode: '',
      city: '',
      postcodes: [],
      cities: [],
      rate: '20.0000',
      name: 'TVA',
      priority: 1,
      compound: false,
      shipping: true,
      order: 0,
      class: 'standard',
      _links: {
        self: [{ href: `${stack.url}${TAXES}/${res.body.id}` }],
        collection: [{ href: `${stack.url}${TAXES}` }],
      },
    });
    expect((await admin.post(TAXES, {})).body).toMatchObject({ rate: '0.0000', priority: 1, shipping: true });
  });

  it('takes rate as a JSON number, postcodes and cities as arrays or ";" lists', async () => {
    const rate = await createRate({
      country: 'US',
      state: 'ca',
      rate: 7.25,
      postcodes: ['90210', '900*', '91000...91999'],
      cities: ['Los Angeles', 'san diego'],
      compound: true,
      shipping: false,
      priority: 2,
      order: 3,
      class: 'reduced-rate',
    });
    expect(rate).toMatchObject({
      state: 'CA',
      rate: '7.2500',
      postcode: '90210;900*;91000...91999',
      postcodes: ['90210', '900*', '91000...91999'],
      city: 'LOS ANGELES;SAN DIEGO',
      cities: ['LOS ANGELES', 'SAN DIEGO'],
      compound: true,
      shipping: false,
      priority: 2,
      order: 3,
      class: 'reduced-rate',
    });
    expect(await createRate({ postcode: '10115; 10117', city: 'Berlin', rate: 0.0001 })).toMatchObject({
      postcodes: ['10115', '10117'],
      cities: ['BERLIN'],
      rate: '0.0001',
    });
  });

  it('refuses an id, and names every malformed field', async () => {
    expectError(await admin.post(TAXES, { id: 5, rate: '1' }), 400, 'shop_rest_tax_exists');
    for (const rate of ['abc', '1,5', '12%', '', true, null, { value: 1 }]) expectInvalid(await admin.post(TAXES, { rate }), 'rate');
    expectInvalid(await admin.post(TAXES, { rate: '1.23456' }), 'rate');
    expectInvalid(await admin.post(TAXES, { rate: 0.00001 }), 'rate');
    expectInvalid(await admin.post(TAXES, { rate: -1 }), 'rate');
    expectInvalid(await admin.post(TAXES, { rate: '100000' }), 'rate');
    expectInvalid(await admin.post(TAXES, { country: 'ZZ' }), 'country');
    expectInvalid(await admin.post(TAXES, { country: 'USA' }), 'country');
    expectInvalid(await admin.post(TAXES, { country: 'US', state: 'XX' }), 'state');
    expectInvalid(await admin.post(TAXES, { state: 'CA' }), 'state');
    expectInvalid(await admin.post(TAXES, { postcode: '20000...10000' }), 'postcode');
    expectInvalid(await admin.post(TAXES, { postcodes: ['A...B'] }), 'postcode');
    expectInvalid(await admin.post(TAXES, { postcodes: ['1;2'] }), 'postcodes');
    expectInvalid(await admin.post(TAXES, { postcodes: '12345' }), 'postcodes');
    expectInvalid(await admin.post(TAXES, { priority: '1' }), 'priority');
    expectInvalid(await admin.post(TAXES, { priority: -1 }), 'priority');
    expectInvalid(await admin.post(TAXES, { order: 1.5 }), 'order');
    expectInvalid(await admin.post(TAXES, { compound: 'yes' }), 'compound');
    expectInvalid(await admin.post(TAXES, { shipping: 1 }), 'shipping');
    expectInvalid(await admin.post(TAXES, { class: 'luxury' }), 'class');
    const several = await admin.post(TAXES, { rate: 'x', priority: 'high' });
    expectError(several, 400, 'rest_invalid_param');
    expect(Object.keys(several.body.data.params).sort()).toEqual(['priority', 'rate']);
    expectError(await admin.post(TAXES, [{ rate: '1' }]), 400, 'rest_invalid_param');
  });
});

describe('GET /taxes', () => {
  beforeAll(async () => {
    const { body } = await admin.get(`${TAXES}?per_page=100`);
    for (const rate of body) await admin.delete(`${TAXES}/${rate.id}?force=true`);
    for (let i = 1; i <= 12; i++) await createRate({ name: `R${i}`, rate: String(i), priority: (i % 3) + 1, order: 12 - i });
  });

  it('pages with X-Platform-Total, X-Platform-TotalPages and Link', async () => {
    const first = await admin.get(`${TAXES}?per_page=5`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(5);
    expect(first.headers.get('x-platform-total')).toBe('12');
    expect(first.headers.get('x-platform-totalpages')).toBe('3');
    expect(first.headers.get('link')).toBe(`<${stack.url}${TAXES}?per_page=5&page=2>; rel="next"`);
    const second = await admin.get(`${TAXES}?per_page=5&page=2`);
    expect(second.headers.get('link')).toContain('page=1>; rel="prev"');
    expect(second.headers.get('link')).toContain('page=3>; rel="next"');
    const last = await admin.get(`${TAXES}?per_page=5&page=3`);
    expect(last.body).toHaveLength(2);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    expect((await admin.get(TAXES)).body).toHaveLength(10);
  });

  it('orders by order (default), id or priority, both ways, and skips with offset', async () => {
    const names = (res: ShopResponse) => res.body.map((r: { name: string }) => r.name);
    expect(names(await admin.get(`${TAXES}?per_page=3`))).toEqual(['R12', 'R11', 'R10']);
    expect(names(await admin.get(`${TAXES}?per_page=3&orderby=id`))).toEqual(['R1', 'R2', 'R3']);
    expect(names(await admin.get(`${TAXES}?per_page=3&orderby=id&order=desc`))).toEqual(['R12', 'R11', 'R10']);
    const byPriority = (await admin.get(`${TAXES}?per_page=100&orderby=priority`)).body.map((r: { priority: number }) => r.priority);
    expect(byPriority).toEqual([...byPriority].sort());
    expect(names(await admin.get(`${TAXES}?per_page=2&orderby=id&offset=10`))).toEqual(['R11', 'R12']);
  });

  it('validates the collection params', async () => {
    for (const query of ['per_page=0', 'per_page=101', 'per_page=ten', 'page=0', 'offset=-1', 'order=up', 'orderby=rate']) {
      expectInvalid(await admin.get(`${TAXES}?${query}`), query.split('=')[0]);
    }
  });
});

describe('GET/PUT/PATCH/DELETE /taxes/<id>', () => {
  it('reads one rate; 404 shop_rest_invalid_id for a missing one, 400 for a malformed id', async () => {
    const rate = await createRate({ country: 'DE', rate: '19', name: 'MwSt' });
    const res = await admin.get(`${TAXES}/${rate.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rate);
    expectError(await admin.get(`${TAXES}/999999`), 404, 'shop_rest_invalid_id');
    expectInvalid(await admin.get(`${TAXES}/abc`), 'id');
    expectInvalid(await admin.get(`${TAXES}/0`), 'id');
    expectInvalid(await admin.get(`${TAXES}/99999999999`), 'id');
  });

  it('changes only the fields sent, with PUT and PATCH', async () => {
    const rate = await createRate({ country: 'US', state: 'NY', rate: '4', name: 'NY', postcodes: ['10001'] });
    const put = await admin.put(`${TAXES}/${rate.id}`, { rate: 8.875, name: 'NYC' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ country: 'US', state: 'NY', rate: '8.8750', name: 'NYC', postcodes: ['10001'] });
    const patch = await admin.patch(`${TAXES}/${rate.id}`, { postcodes: [], compound: true });
    expect(patch.body).toMatchObject({ postcode: '', postcodes: [], compound: true, rate: '8.8750' });
    expect((await admin.get(`${TAXES}/${rate.id}`)).body).toEqual(patch.body);
  });

  it('accepts its own read back (read-only fields are ignored) and rejects bad updates', async () => {
    const rate = await createRate({ country: 'US', state: 'TX', rate: '6.25' });
    const roundTrip = await admin.put(`${TAXES}/${rate.id}`, { ...rate, name: 'Texas' });
    expect(roundTrip.body).toEqual({ ...rate, name: 'Texas' });
    // A new country makes the stored state invalid: the merged record is validated.
    expectInvalid(await admin.patch(`${TAXES}/${rate.id}`, { country: 'CA' }), 'state');
    expectInvalid(await admin.patch(`${TAXES}/${rate.id}`, { rate: 'twenty' }), 'rate');
    expectInvalid(await admin.patch(`${TAXES}/${rate.id}`, { compound: 'true' }), 'compound');
    expectError(await admin.put(`${TAXES}/999999`, { name: 'x' }), 404, 'shop_rest_invalid_id');
    expect((await admin.get(`${TAXES}/${rate.id}`)).body).toEqual({ ...rate, name: 'Texas' });
  });

  it('deletes only with force=true (query or JSON body); 501 rest_trash_not_supported otherwise', async () => {
    const rate = await createRate({ rate: '3', name: 'Doomed' });
    expectError(await admin.delete(`${TAXES}/${rate.id}`), 501, 'rest_trash_not_supported');
    expectError(await admin.delete(`${TAXES}/${rate.id}?force=false`), 501, 'rest_trash_not_supported');
    expectError(await admin.delete(`${TAXES}/${rate.id}`, { json: { force: false } }), 501, 'rest_trash_not_supported');
    expect((await admin.get(`${TAXES}/${rate.id}`)).status).toBe(200);
    expectInvalid(await admin.delete(`${TAXES}/${rate.id}?force=maybe`), 'force');
    expectInvalid(await admin.delete(`${TAXES}/${rate.id}`, { json: { force: 'true' } }), 'force');
    const res = await admin.delete(`${TAXES}/${rate.id}?force=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, previous: rate });
    expectError(await admin.get(`${TAXES}/${rate.id}`), 404, 'shop_rest_invalid_id');
    expectError(await admin.delete(`${TAXES}/${rate.id}?force=true`), 404, 'shop_rest_invalid_id');
    const other = await createRate({ rate: '2' });
    expect((await admin.delete(`${TAXES}/${other.id}`, { json: { force: true } })).body.deleted).toBe(true);
  });
});

describe('PUT/PATCH/POST /taxes/batch', () => {
  it('runs create, update and delete item by item, with per-item errors', async () => {
    const keep = await createRate({ rate: '1', name: 'Keep' });
    const drop = await createRate({ rate: '2', name: 'Drop' });
    const res = await admin.put(`${TAXES}/batch`, {
      create: [{ country: 'IT', rate: '22', name: 'IVA' }, { rate: 'lots' }, { id: 7, rate: '1' }],
      update: [{ id: keep.id, rate: 1.5 }, { id: 999999, rate: '1' }, { rate: '3' }, { id: 'x' }],
      delete: [drop.id, 999999, 'abc'],
    });
    expect(res.status).toBe(200);
    expect(res.body.create[0]).toMatchObject({ id: expect.any(Number), country: 'IT', rate: '22.0000', name: 'IVA' });
    expect(res.body.create[1].error).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { rate: expect.any(String) } } });
    expect(res.body.create[2]).toMatchObject({ id: 7, error: { code: 'shop_rest_tax_exists', data: { status: 400 } } });
    expect(res.body.update[0]).toMatchObject({ id: keep.id, rate: '1.5000', name: 'Keep' });
    expect(res.body.update[1]).toMatchObject({ id: 999999, error: { code: 'shop_rest_invalid_id', data: { status: 404 } } });
    expect(res.body.update[2].error).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400 } });
    expect(res.body.update[3]).toMatchObject({ id: 'x', error: { code: 'rest_invalid_param', data: { status: 400 } } });
    // A batch delete is permanent (no force needed) and answers the deleted rate.
    expect(res.body.delete[0]).toEqual({ ...drop });
    expect(res.body.delete[1]).toMatchObject({ id: 999999, error: { code: 'shop_rest_invalid_id' } });
    expect(res.body.delete[2]).toMatchObject({ id: 'abc', error: { code: 'rest_invalid_param' } });
    expectError(await admin.get(`${TAXES}/${drop.id}`), 404, 'shop_rest_invalid_id');
    expect((await admin.get(`${TAXES}/${res.body.create[0].id}`)).status).toBe(200);
  });

  it('answers PATCH and POST the same way and only echoes the arrays sent', async () => {
    const patch = await admin.patch(`${TAXES}/batch`, { create: [{ rate: '5' }] });
    expect(Object.keys(patch.body)).toEqual(['create']);
    const post = await admin.post(`${TAXES}/batch`, { delete: [patch.body.create[0].id] });
    expect(post.body).toEqual({ delete: [expect.objectContaining({ id: patch.body.create[0].id })] });
    expect((await admin.put(`${TAXES}/batch`, {})).body).toEqual({});
  });

  it('refuses more than 100 items (413) and envelopes of the wrong shape (400)', async () => {
    const before = (await admin.get(TAXES)).headers.get('x-platform-total');
    const tooMany = await admin.put(`${TAXES}/batch`, {
      create: Array.from({ length: 60 }, () => ({ rate: '1' })),
      delete: Array.from({ length: 41 }, (_, i) => i + 1),
    });
    expectError(tooMany, 413, 'rest_request_entity_too_large');
    expect((await admin.get(TAXES)).headers.get('x-platform-total')).toBe(before);
    expect((await admin.put(`${TAXES}/batch`, { create: Array.from({ length: 100 }, () => ({ rate: '1' })) })).status).toBe(200);
    expectInvalid(await admin.put(`${TAXES}/batch`, { create: { rate: '1' } }), 'create');
    expectInvalid(await admin.put(`${TAXES}/batch`, { delete: 5 }), 'delete');
    expectError(await admin.put(`${TAXES}/batch`, [{ rate: '1' }]), 400, 'rest_invalid_param');
    expectError(await admin.put(`${TAXES}/batch`, undefined, { raw: '{"create": [' }), 400, 'rest_invalid_json');
    // Not a batch method: the unknown route it is (not a bad /taxes/<id>).
    expectError(await admin.get(`${TAXES}/batch`), 404, 'rest_no_route');
  });
});

describe('OPTIONS /taxes', () => {
  it('describes the collection and the tax rate schema', async () => {
    const res = await guest.options(TAXES);
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('shop/v1');
    expect(res.body.methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const list = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(list.args.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(list.args.orderby.anyOf.map((a: { const: string }) => a.const)).toEqual(['id', 'order', 'priority']);
    const create = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(create.args.rate).toMatchObject({ type: ['string', 'number'], required: false });
    expect(Object.keys(res.body.schema.properties)).toEqual(
      expect.arrayContaining(['id', 'rate', 'postcodes', 'cities', 'compound', 'shipping', 'priority', 'class']),
    );
    const batch = await guest.options(`${TAXES}/batch`);
    expect(batch.body.methods).toEqual(expect.arrayContaining(['PUT', 'PATCH']));
  });
});
