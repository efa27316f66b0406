import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fulfillment } from '@storefront/proto/fulfillment';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { fulfillmentService } from '../src/service';
import { admin, connect, expectInvalidParam, rejection, type FulfillmentClients } from './support/grpc';

let service: TestService;
let api: FulfillmentClients;

beforeAll(async () => {
  service = await startTestService(fulfillmentService);
  api = connect(service);
});

afterAll(async () => {
  api.channel.close();
  await service.stop();
});

const createZone = (fields: Partial<fulfillment.CreateZoneRequest>) =>
  api.shipping.createZone(fulfillment.CreateZoneRequest.fromPartial(fields), admin).then((r) => r.zone!);
const updateZone = (fields: Partial<fulfillment.UpdateZoneRequest>) =>
  api.shipping.updateZone(fulfillment.UpdateZoneRequest.fromPartial(fields), admin).then((r) => r.zone!);
const addMethod = (fields: Partial<fulfillment.CreateZoneMethodRequest>) =>
  api.shipping.createZoneMethod(fulfillment.CreateZoneMethodRequest.fromPartial(fields), admin).then((r) => r.method!);
const updateMethod = (fields: Partial<fulfillment.UpdateMethodRequest>) =>
  api.shipping.updateMethod(fulfillment.UpdateMethodRequest.fromPartial(fields), admin).then((r) => r.method!);

async function expectStatus(promise: Promise<unknown>, code: string, status: number) {
  const err = await rejection(promise);
  expect([err.code, err.status]).toEqual([code, status]);
}

describe('ShippingService zones over gRPC', () => {
  it('always has the rest-of-the-world zone, which cannot be updated or deleted', async () => {
    const { zones } = await api.shipping.listZones({}, admin);
    expect(zones[0]).toEqual({
      id: 0,
      name: 'Locations not covered by your other zones',
      order: 0,
      locations: [],
      postcodes: '',
      methods: [],
    });
    await expectStatus(updateZone({ id: 0, name: 'Mine' }), 'shop_rest_shipping_zone_invalid_zone', 403);
    await expectStatus(api.shipping.deleteZone({ id: 0 }, admin), 'shop_rest_shipping_zone_invalid_zone', 403);
  });

  it('creates a zone with normalized locations and postcodes', async () => {
    const zone = await createZone({
      name: ' US West ',
      locations: ['us:ca', 'US:OR', 'continent:eu', 'MX', 'US:CA'],
      postcodes: '90210\r\n 100* \n\n10000...19999',
      order: 2,
    });
    expect(zone).toMatchObject({
      name: 'US West',
      order: 2,
      locations: [
        { code: 'US:CA', type: 'state' },
        { code: 'US:OR', type: 'state' },
        { code: 'continent:EU', type: 'continent' },
        { code: 'MX', type: 'country' },
      ],
      postcodes: '90210\n100*\n10000...19999',
      methods: [],
    });
    expect((await api.shipping.getZone({ id: zone.id }, admin)).zone).toEqual(zone);
  });

  it('names unknown region codes and malformed postcodes', async () => {
    const why = await expectInvalidParam(createZone({ name: 'Bad', locations: ['US:ZZ', 'XX', 'continent:XY', 'Mars', 'FR'] }), 'zone_locations');
    for (const code of ['US:ZZ', 'XX', 'continent:XY', 'Mars']) expect(why).toContain(code);
    expect(why).not.toContain('"FR"');
    await expectInvalidParam(createZone({ name: 'Bad', postcodes: '10000\nA...B' }), 'zone_postcodes');
    await expectInvalidParam(createZone({ name: 'Bad', postcodes: '20000...10000' }), 'zone_postcodes');
    await expectInvalidParam(createZone({ name: '   ' }), 'zone_name');
  });

  it('updates only what is sent; set_locations and postcodes replace', async () => {
    const zone = await createZone({ name: 'EU', locations: ['continent:EU'], postcodes: '75*' });
    expect(await updateZone({ id: zone.id, name: 'Europe', order: 5 })).toEqual({ ...zone, name: 'Europe', order: 5 });
    const moved = await updateZone({ id: zone.id, locations: ['FR', 'de'], setLocations: true, postcodes: '' });
    expect(moved).toMatchObject({ locations: [{ code: 'FR', type: 'country' }, { code: 'DE', type: 'country' }], postcodes: '' });
    await expectStatus(updateZone({ id: 424242, name: 'x' }), 'shop_rest_shipping_zone_invalid', 404);
    await expectInvalidParam(updateZone({ id: zone.id, locations: ['ZZ'], setLocations: true }), 'zone_locations');
  });

  it('answers 404 for a missing zone', async () => {
    await expectStatus(api.shipping.getZone({ id: 424242 }, admin), 'shop_rest_shipping_zone_invalid', 404);
    await expectStatus(api.shipping.deleteZone({ id: 424242 }, admin), 'shop_rest_shipping_zone_invalid', 404);
    await expectStatus(api.shipping.listZoneMethods({ zoneId: 424242 }, admin), 'shop_rest_shipping_zone_invalid', 404);
  });
});

describe('ShippingService methods over gRPC', () => {
  it('lists the method types with their settings schemas', async () => {
    const { methodTypes } = await api.shipping.listMethodTypes({}, admin);
    expect(methodTypes.map((t) => t.id)).toEqual(['flat_rate', 'free_shipping', 'local_pickup']);
    const free = methodTypes.find((t) => t.id === 'free_shipping')!;
    expect(free.title).toBe('Free shipping');
    expect(free.settingsSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        requires: { type: 'string', enum: ['none', 'coupon', 'min_amount', 'either', 'both'] },
        min_amount: { type: 'number', minimum: 0 },
      },
    });
  });

  it('creates instances from the type settings, with defaults, in the zone order', async () => {
    const zone = await createZone({ name: 'Methods' });
    const flat = await addMethod({ zoneId: zone.id, methodId: 'flat_rate', settings: { cost: '12.5' } });
    expect(flat).toMatchObject({
      methodId: 'flat_rate',
      zoneId: zone.id,
      name: 'Flat rate',
      enabled: true,
      order: 1,
      methodTitle: 'Flat rate',
      settings: { cost: 12.5 },
    });
    const free = await addMethod({ zoneId: zone.id, methodId: 'free_shipping', name: 'Free over 50', settings: { requires: 'min_amount', min_amount: 50 } });
    expect(free).toMatchObject({ name: 'Free over 50', order: 2, settings: { requires: 'min_amount', min_amount: 50 } });
    const pickup = await addMethod({ zoneId: 0, methodId: 'local_pickup', enabled: false });
    expect(pickup).toMatchObject({ zoneId: 0, enabled: false, settings: { cost: 0 } });
    const listed = await api.shipping.listZoneMethods({ zoneId: zone.id }, admin);
    expect(listed.methods.map((m) => m.instanceId)).toEqual([flat.instanceId, free.instanceId]);
    expect((await api.shipping.getZone({ id: zone.id }, admin)).zone!.methods).toEqual(listed.methods);
  });

  it('refuses unknown types, unknown settings and bad values', async () => {
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'teleport' }), 'method_id');
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'flat_rate', settings: { cost: -1 } }), 'cost');
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'flat_rate', settings: { cost: 'ten' } }), 'cost');
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'flat_rate', settings: { cost: 1.234 } }), 'cost');
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'flat_rate', settings: { requires: 'coupon' } }), 'requires');
    await expectInvalidParam(addMethod({ zoneId: 0, methodId: 'free_shipping', settings: { requires: 'sometimes' } }), 'requires');
    await expectStatus(addMethod({ zoneId: 424242, methodId: 'flat_rate' }), 'shop_rest_shipping_zone_invalid', 404);
  });

  it('gets, updates (name and zone_id required; may move zones) and deletes an instance', async () => {
    const zone = await createZone({ name: 'Source' });
    const flat = await addMethod({ zoneId: zone.id, methodId: 'flat_rate', settings: { cost: 5 } });
    const ref = { methodId: 'flat_rate', instanceId: flat.instanceId };
    expect((await api.shipping.getMethod(ref, admin)).method).toEqual(flat);
    await expectStatus(
      api.shipping.getMethod({ methodId: 'free_shipping', instanceId: flat.instanceId }, admin),
      'shop_rest_shipping_zone_method_invalid',
      404,
    );
    const missing = await rejection(updateMethod({ ...ref, zoneId: zone.id }));
    expect([missing.code, missing.status, missing.data.params]).toEqual(['rest_missing_callback_param', 400, ['name']]);
    await expectStatus(updateMethod({ ...ref, name: 'x', zoneId: 424242 }), 'shop_rest_shipping_zone_invalid', 404);
    await expectInvalidParam(updateMethod({ ...ref, name: ' ', zoneId: zone.id }), 'name');
    await expectInvalidParam(updateMethod({ ...ref, name: 'x', zoneId: zone.id, settings: { cost: 'free' } }), 'cost');
    const moved = await updateMethod({ ...ref, name: 'Courier', zoneId: 0, enabled: false, settings: { cost: 7.99 } });
    expect(moved).toMatchObject({ name: 'Courier', zoneId: 0, enabled: false, order: flat.order, settings: { cost: 7.99 } });
    expect((await api.shipping.listZoneMethods({ zoneId: zone.id }, admin)).methods).toEqual([]);
    expect((await api.shipping.deleteMethod(ref, admin)).previous).toEqual(moved);
    await expectStatus(api.shipping.getMethod(ref, admin), 'shop_rest_shipping_zone_method_invalid', 404);
    await expectStatus(api.shipping.deleteMethod(ref, admin), 'shop_rest_shipping_zone_method_invalid', 404);
  });

  it('deletes a zone together with its method instances', async () => {
    const zone = await createZone({ name: 'Temporary', locations: ['JP'] });
    const flat = await addMethod({ zoneId: zone.id, methodId: 'flat_rate' });
    const { previous } = await api.shipping.deleteZone({ id: zone.id }, admin);
    expect(previous).toMatchObject({ id: zone.id, locations: [{ code: 'JP', type: 'country' }], methods: [flat] });
    await expectStatus(api.shipping.getZone({ id: zone.id }, admin), 'shop_rest_shipping_zone_invalid', 404);
    await expectStatus(
      api.shipping.getMethod({ methodId: 'flat_rate', instanceId: flat.instanceId }, admin),
      'shop_rest_shipping_zone_method_invalid',
      404,
    );
  });
});

describe('regions over gRPC', () => {
  it('lists continents and every country with its states', async () => {
    const { continents, countries } = await api.shipping.listRegions({}, admin);
    expect(continents.map((c) => c.code)).toEqual(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);
    expect(countries).toHaveLength(249);
    const us = countries.find((c) => c.code === 'US')!;
    expect(us).toMatchObject({ name: 'United States', continent: 'NA', stateLabel: 'State', stateRequired: true });
    expect(us.states).toContainEqual({ code: 'CA', name: 'California' });
  });

  it('answers checkout/states for a country, case-insensitively', async () => {
    const us = await api.regions.getStates({ countryCode: 'us' }, admin);
    expect(us).toMatchObject({ countryCode: 'US', label: 'State', required: true });
    expect(us.states).toContainEqual({ code: 'DC', name: 'District of Columbia' });
    expect(await api.regions.getStates({ countryCode: 'GB' }, admin)).toEqual({
      countryCode: 'GB',
      states: [],
      label: 'County',
      required: false,
    });
    expect((await api.regions.getStates({ countryCode: 'JP' }, admin)).label).toBe('Prefecture');
    await expectInvalidParam(api.regions.getStates({ countryCode: 'XX' }, admin), 'country_code');
    await expectInvalidParam(api.regions.getStates({ countryCode: '' }, admin), 'country_code');
  });
});
