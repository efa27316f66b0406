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

const create = (fields: Partial<fulfillment.CreateTaxRateRequest>) =>
  api.taxes.createTaxRate(fulfillment.CreateTaxRateRequest.fromPartial(fields), admin).then((r) => r.taxRate!);

describe('TaxService over gRPC', () => {
  it('creates a rate with the contract defaults and normalized fields', async () => {
    const rate = await create({ country: 'us', state: 'ca', postcode: '90210; 900*', city: 'Los Angeles', rate: '7.25', name: 'CA' });
    expect(rate).toMatchObject({
      country: 'US',
      state: 'CA',
      postcode: '90210;900*',
      city: 'LOS ANGELES',
      rate: '7.2500',
      name: 'CA',
      priority: 1,
      compound: false,
      shipping: true,
      order: 0,
      class: 'standard',
    });
    expect((await api.taxes.getTaxRate({ id: rate.id }, admin)).taxRate).toEqual(rate);
    expect((await create({})).rate).toBe('0.0000');
  });

  it('updates only the fields present and validates the result as a whole', async () => {
    const rate = await create({ country: 'US', state: 'NY', rate: '4', name: 'NY' });
    const updated = await api.taxes.updateTaxRate(
      fulfillment.UpdateTaxRateRequest.fromPartial({ id: rate.id, rate: '8.875', compound: true, priority: 2 }),
      admin,
    );
    expect(updated.taxRate).toEqual({ ...rate, rate: '8.8750', compound: true, priority: 2 });
    // NY is not a state of Canada: the stored state fails against the new country.
    expect(
      await expectInvalidParam(
        api.taxes.updateTaxRate(fulfillment.UpdateTaxRateRequest.fromPartial({ id: rate.id, country: 'CA' }), admin),
        'state',
      ),
    ).toContain('CA');
    const missing = await rejection(api.taxes.updateTaxRate(fulfillment.UpdateTaxRateRequest.fromPartial({ id: 999999 }), admin));
    expect([missing.code, missing.status]).toEqual(['shop_rest_invalid_id', 404]);
  });

  it('refuses malformed fields with 400 rest_invalid_param naming them', async () => {
    await expectInvalidParam(create({ country: 'XX' }), 'country');
    await expectInvalidParam(create({ country: 'US', state: 'ZZ' }), 'state');
    await expectInvalidParam(create({ rate: 'abc' }), 'rate');
    await expectInvalidParam(create({ rate: '12.5%' }), 'rate');
    await expectInvalidParam(create({ rate: '-1' }), 'rate');
    await expectInvalidParam(create({ postcode: '19999...10000' }), 'postcode');
    await expectInvalidParam(create({ postcode: 'A1...B9' }), 'postcode');
    await expectInvalidParam(create({ class: 'luxury' }), 'class');
    await expectInvalidParam(create({ priority: -1 }), 'priority');
  });

  it('lists with page, per_page, offset, orderby and order, and counts every rate', async () => {
    const before = (await api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({}), admin)).total;
    for (const [priority, order] of [[3, 2], [1, 1], [2, 0]]) await create({ name: `p${priority}`, priority, order });
    const byPriority = await api.taxes.listTaxRates(
      fulfillment.ListTaxRatesRequest.fromPartial({ orderby: 'priority', order: 'desc', perPage: 2 }),
      admin,
    );
    expect(byPriority.total).toBe(before + 3);
    expect(byPriority.totalPages).toBe(Math.ceil((before + 3) / 2));
    expect(byPriority.taxRates.map((r) => r.name)).toEqual(['p3', 'p2']);
    const all = await api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({ orderby: 'id', perPage: 100 }), admin);
    const page2 = await api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({ orderby: 'id', perPage: 2, page: 2 }), admin);
    expect(page2.taxRates.map((r) => r.id)).toEqual(all.taxRates.slice(2, 4).map((r) => r.id));
    const offset = await api.taxes.listTaxRates(
      fulfillment.ListTaxRatesRequest.fromPartial({ orderby: 'id', perPage: 2, page: 5, offset: 1 }),
      admin,
    );
    expect(offset.taxRates.map((r) => r.id)).toEqual(all.taxRates.slice(1, 3).map((r) => r.id));
    await expectInvalidParam(api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({ perPage: 101 }), admin), 'per_page');
    await expectInvalidParam(api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({ orderby: 'name' }), admin), 'orderby');
    await expectInvalidParam(api.taxes.listTaxRates(fulfillment.ListTaxRatesRequest.fromPartial({ order: 'up' }), admin), 'order');
  });

  it('deletes only with force: without it 501 rest_trash_not_supported and nothing is deleted', async () => {
    const rate = await create({ name: 'doomed', rate: '1' });
    const refused = await rejection(api.taxes.deleteTaxRate({ id: rate.id, force: false }, admin));
    expect([refused.code, refused.status]).toEqual(['rest_trash_not_supported', 501]);
    expect((await api.taxes.getTaxRate({ id: rate.id }, admin)).taxRate).toEqual(rate);
    expect((await api.taxes.deleteTaxRate({ id: rate.id, force: true }, admin)).previous).toEqual(rate);
    const gone = await rejection(api.taxes.getTaxRate({ id: rate.id }, admin));
    expect([gone.code, gone.status]).toEqual(['shop_rest_invalid_id', 404]);
    const again = await rejection(api.taxes.deleteTaxRate({ id: rate.id, force: true }, admin));
    expect(again.status).toBe(404);
  });
});
