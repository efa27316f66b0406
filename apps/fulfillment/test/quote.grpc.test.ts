import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fulfillment } from '@storefront/proto/fulfillment';
import { startService, type RunningService } from '@storefront/service-kit';
import { silentLogger } from '@storefront/testing';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { fulfillmentService } from '../src/service';
import { admin, connect, expectInvalidParam, type FulfillmentClients } from './support/grpc';

// Two replicas on one database: `api` writes, `replica` quotes with its own
// in-memory snapshot and rounds at subtotal level.
let service: TestService;
let replicaService: RunningService;
let api: FulfillmentClients;
let replica: FulfillmentClients;

beforeAll(async () => {
  service = await startTestService(fulfillmentService);
  replicaService = await startService(fulfillmentService, {
    env: { ...service.env, TAX_ROUNDING: 'subtotal', MIGRATE_ON_BOOT: 'false' },
    logger: silentLogger(),
  });
  api = connect(service);
  replica = connect(replicaService);
});

afterAll(async () => {
  api.channel.close();
  replica.channel.close();
  await replicaService.stop();
  await service.stop();
});

const quoteRequest = (fields: Partial<fulfillment.QuoteRequest>) => fulfillment.QuoteRequest.fromPartial(fields);
const line = (key: string, amount: string, shippingRequired = true) =>
  fulfillment.QuoteLine.fromPartial({ key, amount, quantity: 1, shippingRequired });
const californiaCart = quoteRequest({
  destination: { country: 'US', state: 'CA', postcode: '94103', city: 'San Francisco' },
  lines: [line('a', '1.99'), line('b', '1.99'), line('c', '1.99')],
});

describe('QuoteService over gRPC', () => {
  let salesTaxId = 0;

  beforeAll(async () => {
    const zone = await api.shipping.createZone(
      fulfillment.CreateZoneRequest.fromPartial({ name: 'California', locations: ['US:CA'] }),
      admin,
    );
    const methods = [
      { methodId: 'flat_rate', settings: { cost: 4.99 } },
      { methodId: 'free_shipping', settings: { requires: 'min_amount', min_amount: 50 } },
    ];
    for (const m of methods) {
      await api.shipping.createZoneMethod(fulfillment.CreateZoneMethodRequest.fromPartial({ zoneId: zone.zone!.id, ...m }), admin);
    }
    await api.shipping.createZoneMethod(
      fulfillment.CreateZoneMethodRequest.fromPartial({ zoneId: 0, methodId: 'flat_rate', name: 'International', settings: { cost: 25 } }),
      admin,
    );
    const rate = await api.taxes.createTaxRate(
      fulfillment.CreateTaxRateRequest.fromPartial({ country: 'US', state: 'CA', rate: '7.25', name: 'CA Sales Tax', postcode: '90000...96199' }),
      admin,
    );
    salesTaxId = rate.taxRate!.id;
  });

  it('quotes zone, rates and taxes to the cent (line rounding by default)', async () => {
    const q = await api.quotes.quote(californiaCart, admin);
    expect(q.rounding).toBe('line');
    expect(q.zone).toMatchObject({ name: 'California' });
    // subtotal 5.97 < 50: no free shipping. Shipping 4.99 x 7.25% = 0.361775 -> 0.36
    expect(q.rates.map((r) => [r.methodId, r.label, r.cost, r.tax])).toEqual([['flat_rate', 'Flat rate', '4.99', '0.36']]);
    // each line 1.99 x 7.25% = 0.144275 -> 0.14
    expect(q.lines.map((l) => l.tax)).toEqual(['0.14', '0.14', '0.14']);
    expect(q.taxLines).toEqual([
      { rateId: salesTaxId, label: 'CA Sales Tax', compound: false, rate: '7.2500', taxTotal: '0.42', shippingTaxTotal: '0.36' },
    ]);
    // 5.97 + 0.42 + 4.99 + 0.36 = 11.74
    expect(q.totals).toEqual({
      itemsTotal: '5.97',
      itemsTax: '0.42',
      itemsSubtotalTax: '0.42',
      shippingTotal: '4.99',
      shippingTax: '0.36',
      taxTotal: '0.78',
      total: '11.74',
    });
  });

  it('rounds at subtotal level where TAX_ROUNDING=subtotal', async () => {
    const q = await replica.quotes.quote(californiaCart, admin);
    expect(q.rounding).toBe('subtotal');
    // 3 x 0.144275 = 0.432825 -> 0.43, the spare cent on the first line
    expect(q.lines.map((l) => l.tax)).toEqual(['0.15', '0.14', '0.14']);
    // 5.97 + 0.43 + 4.99 + 0.36 = 11.75
    expect(q.totals!.total).toBe('11.75');
  });

  it('offers free shipping once the subtotal reaches min_amount, and the rest-of-world methods elsewhere', async () => {
    const big = await api.quotes.quote(quoteRequest({ ...californiaCart, subtotal: '50.00' }), admin);
    expect(big.rates.map((r) => r.methodId)).toEqual(['flat_rate', 'free_shipping']);
    const abroad = await api.quotes.quote(quoteRequest({ ...californiaCart, destination: { country: 'JP', state: '', postcode: '', city: '' } }), admin);
    expect(abroad.zone).toMatchObject({ id: 0 });
    expect(abroad.rates.map((r) => [r.label, r.cost])).toEqual([['International', '25.00']]);
    expect(abroad.taxLines).toEqual([]);
  });

  it('sees a change made through another replica on the very next quote', async () => {
    expect((await replica.quotes.quote(californiaCart, admin)).totals!.itemsTax).toBe('0.43');
    await api.taxes.updateTaxRate(fulfillment.UpdateTaxRateRequest.fromPartial({ id: salesTaxId, rate: '10' }), admin);
    // 5.97 x 10% = 0.597 -> 0.60
    expect((await replica.quotes.quote(californiaCart, admin)).totals!.itemsTax).toBe('0.60');
    await api.taxes.deleteTaxRate({ id: salesTaxId, force: true }, admin);
    expect((await replica.quotes.quote(californiaCart, admin)).taxLines).toEqual([]);
  });

  it('refuses malformed input with 400 rest_invalid_param, never INTERNAL', async () => {
    const bad = (fields: Partial<fulfillment.QuoteRequest>) => api.quotes.quote(quoteRequest({ ...californiaCart, ...fields }), admin);
    await expectInvalidParam(bad({ destination: { country: 'XX', state: '', postcode: '', city: '' } }), 'country');
    await expectInvalidParam(bad({ lines: [line('a', 'ten')] }), 'lines[0].amount');
    await expectInvalidParam(bad({ lines: [line('a', '1.999')] }), 'lines[0].amount');
    await expectInvalidParam(bad({ lines: [line('a', '-1.00')] }), 'lines[0].amount');
    await expectInvalidParam(bad({ lines: [{ ...line('a', '1.00'), taxClass: 'luxury' }] }), 'lines[0].tax_class');
    await expectInvalidParam(bad({ lines: [{ ...line('a', '1.00'), weight: 'heavy' }] }), 'lines[0].weight');
    await expectInvalidParam(bad({ subtotal: '1,00' }), 'subtotal');
  });
});
