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
  const registered = await customer.post('/shop/v1/auth/register', { email: 'shipper@example.com', password: 'password-1' });
  expect(registered.status).toBe(200);
  guest = new ShopClient(stack.url);
});
afterAll(() => stack?.stop());

const SHIPPING = '/shop/v1/shipping';
const REST_OF_WORLD = 'Locations not covered by your other zones';

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params)).toContain(field);
}

async function created(res: Promise<ShopResponse>): Promise<Record<string, any>> {
  const { status, body } = await res;
  if (status !== 201) throw new Error(`create failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

const createZone = (fields: Record<string, unknown>) => created(admin.post(`${SHIPPING}/zones`, fields));
const addMethod = (zoneId: number, fields: Record<string, unknown>) =>
  created(admin.post(`${SHIPPING}/zones/${zoneId}/methods`, fields));

describe('permission tier: admin (manage_options)', () => {
  it('is 401 for guests and 403 for customers on every route, 2xx for the admin', async () => {
    const zone = await createZone({ zone_name: 'Matrix' });
    const method = await addMethod(zone.id, { method_id: 'flat_rate', cost: 1 });
    const instance = `${SHIPPING}/methods/flat_rate/${method.instance_id}`;
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.get(`${SHIPPING}/zones`),
      (c) => c.post(`${SHIPPING}/zones`, { zone_name: 'Z' }),
      (c) => c.get(`${SHIPPING}/zones/${zone.id}`),
      (c) => c.put(`${SHIPPING}/zones/${zone.id}`, { zone_name: 'Matrix 2' }),
      (c) => c.patch(`${SHIPPING}/zones/${zone.id}`, { zone_order: 1 }),
      (c) => c.get(`${SHIPPING}/zones/${zone.id}/methods`),
      (c) => c.post(`${SHIPPING}/zones/${zone.id}/methods`, { method_id: 'local_pickup' }),
      (c) => c.get(`${SHIPPING}/methods`),
      (c) => c.get(instance),
      (c) => c.put(instance, { name: 'Flat', zone_id: zone.id }),
      (c) => c.patch(instance, { name: 'Flat', zone_id: zone.id, cost: 2 }),
      (c) => c.get(`${SHIPPING}/regions`),
      (c) => c.delete(instance),
      (c) => c.delete(`${SHIPPING}/zones/${zone.id}`),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'shop_rest_forbidden_context');
      expectError(await call(customer), 403, 'shop_rest_forbidden_context');
    }
    for (const call of calls) expect((await call(admin)).status).toBeLessThan(300);
  });
});

describe('zones', () => {
  it('always lists zone 0 ("rest of the world") first, with collection headers', async () => {
    const res = await admin.get(`${SHIPPING}/zones`);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ id: 0, zone_name: REST_OF_WORLD, zone_order: 0, zone_locations: [], zone_postcodes: '' });
    expect(res.headers.get('x-platform-total')).toBe(String(res.body.length));
    expect(res.headers.get('x-platform-totalpages')).toBe('1');
  });

  it('creates a zone (201) with normalized locations and postcodes', async () => {
    const res = await admin.post(`${SHIPPING}/zones`, {
      zone_name: ' US West ',
      zone_locations: ['us:ca', 'US:OR', 'continent:eu', 'MX', 'US:CA'],
      zone_postcodes: '90210\n 100* \n\n10000...19999',
      zone_order: 2,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${SHIPPING}/zones/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      zone_name: 'US West',
      zone_order: 2,
      zone_locations: ['US:CA', 'US:OR', 'continent:EU', 'MX'],
      zone_postcodes: '90210\n100*\n10000...19999',
      methods: [],
      _links: {
        self: [{ href: `${stack.url}${SHIPPING}/zones/${res.body.id}` }],
        collection: [{ href: `${stack.url}${SHIPPING}/zones` }],
        methods: [{ href: `${stack.url}${SHIPPING}/zones/${res.body.id}/methods` }],
      },
    });
    expect((await admin.get(`${SHIPPING}/zones/${res.body.id}`)).body).toEqual(res.body);
  });

  it('names unknown locations, malformed postcode ranges and bad fields', async () => {
    const unknown = await admin.post(`${SHIPPING}/zones`, { zone_name: 'Bad', zone_locations: ['US:ZZ', 'XX', 'continent:XY', 'FR'] });
    expectInvalid(unknown, 'zone_locations');
    expect(unknown.body.data.params.zone_locations).toContain('XX');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: 'Bad', zone_postcodes: '20000...10000' }), 'zone_postcodes');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: 'Bad', zone_postcodes: 'A...B' }), 'zone_postcodes');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: '   ' }), 'zone_name');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: 5 }), 'zone_name');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: 'Bad', zone_locations: 'US' }), 'zone_locations');
    expectInvalid(await admin.post(`${SHIPPING}/zones`, { zone_name: 'Bad', zone_order: '1' }), 'zone_order');
    const missing = await admin.post(`${SHIPPING}/zones`, { zone_locations: ['US'] });
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(missing.body.data.params).toEqual(['zone_name']);
  });

  it('updates only the fields sent (PUT and PATCH); zone_locations replaces', async () => {
    const zone = await createZone({ zone_name: 'EU', zone_locations: ['continent:EU'], zone_postcodes: '75*' });
    const put = await admin.put(`${SHIPPING}/zones/${zone.id}`, { zone_name: 'Europe' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ zone_name: 'Europe', zone_locations: ['continent:EU'], zone_postcodes: '75*' });
    const patch = await admin.patch(`${SHIPPING}/zones/${zone.id}`, { zone_locations: ['FR', 'de'], zone_postcodes: '', zone_order: 4 });
    expect(patch.body).toMatchObject({ zone_name: 'Europe', zone_locations: ['FR', 'DE'], zone_postcodes: '', zone_order: 4 });
    // Its own read back is accepted: read-only fields are ignored.
    expect((await admin.put(`${SHIPPING}/zones/${zone.id}`, patch.body)).body).toEqual(patch.body);
    expectInvalid(await admin.patch(`${SHIPPING}/zones/${zone.id}`, { zone_locations: ['Mars'] }), 'zone_locations');
    expectError(await admin.put(`${SHIPPING}/zones/999999`, { zone_name: 'x' }), 404, 'shop_rest_shipping_zone_invalid');
  });

  it('keeps zone 0: 403 on update and delete, 404 for missing zones, 400 for malformed ids', async () => {
    expectError(await admin.put(`${SHIPPING}/zones/0`, { zone_name: 'Mine' }), 403, 'shop_rest_shipping_zone_invalid_zone');
    expectError(await admin.delete(`${SHIPPING}/zones/0`), 403, 'shop_rest_shipping_zone_invalid_zone');
    expect((await admin.get(`${SHIPPING}/zones/0`)).body.zone_name).toBe(REST_OF_WORLD);
    expectError(await admin.get(`${SHIPPING}/zones/999999`), 404, 'shop_rest_shipping_zone_invalid');
    expectError(await admin.delete(`${SHIPPING}/zones/999999`), 404, 'shop_rest_shipping_zone_invalid');
    expectInvalid(await admin.get(`${SHIPPING}/zones/abc`), 'zone_id');
    expectInvalid(await admin.get(`${SHIPPING}/zones/-1`), 'zone_id');
  });

  it('deletes a zone with its method instances', async () => {
    const zone = await createZone({ zone_name: 'Short-lived', zone_locations: ['JP'] });
    const method = await addMethod(zone.id, { method_id: 'flat_rate', cost: 3 });
    const res = await admin.delete(`${SHIPPING}/zones/${zone.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: zone.id, zone_name: 'Short-lived', zone_locations: ['JP'] } });
    expect(res.body.previous.methods).toEqual([expect.objectContaining({ instance_id: method.instance_id })]);
    expectError(await admin.get(`${SHIPPING}/zones/${zone.id}`), 404, 'shop_rest_shipping_zone_invalid');
    expectError(await admin.get(`${SHIPPING}/methods/flat_rate/${method.instance_id}`), 404, 'shop_rest_shipping_zone_method_invalid');
  });
});

describe('zone methods', () => {
  let zone: Record<string, any>;
  beforeAll(async () => {
    zone = await createZone({ zone_name: 'Methods', zone_locations: ['CA'] });
  });

  it('adds a method (201) with its settings nested and at the top level', async () => {
    const res = await admin.post(`${SHIPPING}/zones/${zone.id}/methods`, { method_id: 'flat_rate', name: 'Standard', cost: '4.5' });
    expect(res.status).toBe(201);
    const { instance_id: id } = res.body;
    expect(res.headers.get('location')).toBe(`${SHIPPING}/methods/flat_rate/${id}`);
    expect(res.body).toEqual({
      instance_id: expect.any(Number),
      method_id: 'flat_rate',
      zone_id: zone.id,
      name: 'Standard',
      enabled: true,
      order: expect.any(Number),
      method_title: 'Flat rate',
      method_description: expect.any(String),
      settings: { cost: 4.5 },
      cost: 4.5,
      _links: {
        self: [{ href: `${stack.url}${SHIPPING}/methods/flat_rate/${id}` }],
        collection: [{ href: `${stack.url}${SHIPPING}/zones/${zone.id}/methods` }],
        describes: [{ href: `${stack.url}${SHIPPING}/zones/${zone.id}` }],
      },
    });
  });

  it('takes defaults and type-specific settings (nested too), in order', async () => {
    const free = await addMethod(zone.id, { method_id: 'free_shipping', requires: 'min_amount', settings: { min_amount: 50 } });
    expect(free).toMatchObject({ name: 'Free shipping', enabled: true, settings: { requires: 'min_amount', min_amount: 50 }, requires: 'min_amount', min_amount: 50 });
    const pickup = await addMethod(zone.id, { method_id: 'local_pickup', enabled: false, order: 9 });
    expect(pickup).toMatchObject({ name: 'Local pickup', enabled: false, order: 9, settings: { cost: 0 }, cost: 0 });
    const list = await admin.get(`${SHIPPING}/zones/${zone.id}/methods`);
    expect(list.status).toBe(200);
    expect(list.body.map((m: { method_id: string }) => m.method_id)).toEqual(['flat_rate', 'free_shipping', 'local_pickup']);
    expect(list.headers.get('x-platform-total')).toBe('3');
    expect((await admin.get(`${SHIPPING}/zones/${zone.id}`)).body.methods).toEqual(list.body);
    // Zone 0 takes methods too.
    expect((await addMethod(0, { method_id: 'flat_rate', cost: 20 })).zone_id).toBe(0);
  });

  it('rejects unknown types and settings, bad values and ambiguous settings', async () => {
    const add = (body: unknown) => admin.post(`${SHIPPING}/zones/${zone.id}/methods`, body);
    expectInvalid(await add({ method_id: 'teleport' }), 'method_id');
    expectInvalid(await add({ method_id: 'flat_rate', speed: 'fast' }), 'speed');
    expectInvalid(await add({ method_id: 'flat_rate', cost: 'cheap' }), 'cost');
    expectInvalid(await add({ method_id: 'flat_rate', cost: 1.234 }), 'cost');
    expectInvalid(await add({ method_id: 'flat_rate', cost: -1 }), 'cost');
    expectInvalid(await add({ method_id: 'free_shipping', requires: 'luck' }), 'requires');
    expectInvalid(await add({ method_id: 'flat_rate', cost: 1, settings: { cost: 2 } }), 'cost');
    expectInvalid(await add({ method_id: 'flat_rate', settings: 'cost=1' }), 'settings');
    expectInvalid(await add({ method_id: 'flat_rate', enabled: 'yes' }), 'enabled');
    expectInvalid(await add({ method_id: 'flat_rate', order: -1 }), 'order');
    expectError(await add({ cost: 1 }), 400, 'rest_missing_callback_param');
    expectError(await admin.post(`${SHIPPING}/zones/999999/methods`, { method_id: 'flat_rate' }), 404, 'shop_rest_shipping_zone_invalid');
    expectError(await admin.get(`${SHIPPING}/zones/999999/methods`), 404, 'shop_rest_shipping_zone_invalid');
  });

  it('describes the method types and their settings schemas with OPTIONS', async () => {
    const res = await admin.options(`${SHIPPING}/zones/${zone.id}/methods`);
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('shop/v1');
    expect(res.body.methods).toEqual(['GET', 'POST']);
    const post = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(post.args.method_id).toMatchObject({ required: true, enum: ['flat_rate', 'free_shipping', 'local_pickup'] });
    expect(post.args.cost).toMatchObject({ type: 'number', minimum: 0, method_ids: ['flat_rate', 'local_pickup'] });
    expect(post.args.requires).toMatchObject({ enum: ['none', 'coupon', 'min_amount', 'either', 'both'], method_ids: ['free_shipping'] });
    const free = res.body.schema.allOf.find((rule: any) => rule.if.properties.method_id.const === 'free_shipping');
    expect(Object.keys(free.then.properties.settings.properties)).toEqual(['requires', 'min_amount']);
    expect(res.body.schema.properties).toHaveProperty('instance_id');
  });
});

describe('method instances', () => {
  it('reads one; 404 when the instance or its method_id does not match', async () => {
    const zone = await createZone({ zone_name: 'Instances' });
    const method = await addMethod(zone.id, { method_id: 'local_pickup', cost: 2 });
    const res = await admin.get(`${SHIPPING}/methods/local_pickup/${method.instance_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(method);
    expectError(await admin.get(`${SHIPPING}/methods/flat_rate/${method.instance_id}`), 404, 'shop_rest_shipping_zone_method_invalid');
    expectError(await admin.get(`${SHIPPING}/methods/teleport/${method.instance_id}`), 404, 'shop_rest_shipping_zone_method_invalid');
    expectError(await admin.get(`${SHIPPING}/methods/local_pickup/999999`), 404, 'shop_rest_shipping_zone_method_invalid');
    expectInvalid(await admin.get(`${SHIPPING}/methods/local_pickup/abc`), 'instance_id');
  });

  it('updates with name and zone_id required, merging settings; moves between zones', async () => {
    const home = await createZone({ zone_name: 'Home' });
    const away = await createZone({ zone_name: 'Away' });
    const method = await addMethod(home.id, { method_id: 'free_shipping', requires: 'coupon' });
    const url = `${SHIPPING}/methods/free_shipping/${method.instance_id}`;
    const missing = await admin.put(url, { cost: 1 });
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(missing.body.data.params.sort()).toEqual(['name', 'zone_id']);
    const put = await admin.put(url, { name: 'Free over 30', zone_id: home.id, requires: 'min_amount', min_amount: 30 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Free over 30', settings: { requires: 'min_amount', min_amount: 30 }, min_amount: 30 });
    const patch = await admin.patch(url, { name: 'Free over 40', zone_id: away.id, enabled: false, min_amount: '40' });
    expect(patch.body).toMatchObject({ zone_id: away.id, enabled: false, settings: { requires: 'min_amount', min_amount: 40 } });
    expect((await admin.get(`${SHIPPING}/zones/${home.id}/methods`)).body).toEqual([]);
    // A read, changed and sent back, is a valid update.
    const roundTrip = await admin.put(url, { ...patch.body, name: 'Renamed' });
    expect(roundTrip.body).toEqual({ ...patch.body, name: 'Renamed' });
    expectInvalid(await admin.put(url, { name: 'x', zone_id: away.id, requires: 'sometimes' }), 'requires');
    expectInvalid(await admin.put(url, { name: 'x', zone_id: 'home' }), 'zone_id');
    expectError(await admin.put(url, { name: 'x', zone_id: 999999 }), 404, 'shop_rest_shipping_zone_invalid');
    expectError(await admin.put(`${SHIPPING}/methods/flat_rate/${method.instance_id}`, { name: 'x', zone_id: away.id }), 404);
  });

  it('deletes one, answering the previous instance', async () => {
    const zone = await createZone({ zone_name: 'Delete' });
    const method = await addMethod(zone.id, { method_id: 'flat_rate', cost: 7 });
    const url = `${SHIPPING}/methods/flat_rate/${method.instance_id}`;
    const res = await admin.delete(url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, previous: method });
    expectError(await admin.get(url), 404, 'shop_rest_shipping_zone_method_invalid');
    expectError(await admin.delete(url), 404, 'shop_rest_shipping_zone_method_invalid');
  });
});

describe('catalog', () => {
  it('GET /shipping/methods lists the method types with their settings schemas', async () => {
    const res = await admin.get(`${SHIPPING}/methods`);
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual(['flat_rate', 'free_shipping', 'local_pickup']);
    expect(res.body[0]).toMatchObject({
      id: 'flat_rate',
      title: 'Flat rate',
      description: expect.any(String),
      settings_schema: { type: 'object', properties: { cost: { type: 'number', minimum: 0 } }, additionalProperties: false },
      _links: { collection: [{ href: `${stack.url}${SHIPPING}/methods` }] },
    });
    expect(res.headers.get('x-platform-total')).toBe('3');
  });

  it('GET /shipping/regions lists continents and countries with their states', async () => {
    const res = await admin.get(`${SHIPPING}/regions`);
    expect(res.status).toBe(200);
    expect(res.body.continents.find((c: { code: string }) => c.code === 'EU')).toMatchObject({ name: 'Europe', countries: expect.arrayContaining(['FR', 'DE']) });
    expect(res.body.countries).toHaveLength(249);
    const us = res.body.countries.find((c: { code: string }) => c.code === 'US');
    expect(us).toMatchObject({ name: 'United States', continent: 'NA', state_label: 'State', state_required: true });
    expect(us.states).toContainEqual({ code: 'CA', name: 'California' });
  });

  it('OPTIONS /shipping/zones describes the zone schema', async () => {
    const res = await guest.options(`${SHIPPING}/zones`);
    expect(res.status).toBe(200);
    expect(res.body.methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const post = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(post.args.zone_name.required).toBe(true);
    expect(Object.keys(res.body.schema.properties)).toEqual(
      expect.arrayContaining(['id', 'zone_name', 'zone_order', 'zone_locations', 'zone_postcodes', 'methods']),
    );
  });
});
