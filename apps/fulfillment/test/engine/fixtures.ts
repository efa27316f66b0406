import { fromMinor } from '@storefront/money';
import { parseQuoteRequest, type QuoteRequestFields } from '../../src/domain/quote/quote-input';
import { quote } from '../../src/domain/quote/quote-engine';
import type { TaxRounding } from '../../src/domain/quote/rounding';
import { buildSnapshot, type QuoteSnapshot, type TaxRateInputRow, type ZoneInput } from '../../src/domain/quote/snapshot';
import { TAX_RATE_DEFAULTS, type TaxRateValues } from '../../src/domain/tax-rates/tax-rate-values';

// Builders for engine tests: stored rows in, a readable summary of the quote out.

export function taxRate(id: number, fields: Partial<TaxRateValues>): TaxRateInputRow {
  return { ...TAX_RATE_DEFAULTS, ...fields, id };
}

type MethodRow = ZoneInput['methods'][number];

export const flatRate = (instanceId: number, cost: number, extra: Partial<MethodRow> = {}): MethodRow => ({
  instanceId,
  methodId: 'flat_rate',
  title: 'Flat rate',
  enabled: true,
  order: instanceId,
  settings: { cost },
  ...extra,
});

export const freeShipping = (instanceId: number, requires: string, minAmount = 0): MethodRow => ({
  instanceId,
  methodId: 'free_shipping',
  title: 'Free shipping',
  enabled: true,
  order: instanceId,
  settings: { requires, min_amount: minAmount },
});

export function zone(id: number, fields: Partial<ZoneInput> = {}): ZoneInput {
  return { id, name: `Zone ${id}`, order: 0, regions: [], postcodes: [], methods: [], ...fields };
}

/** Region locations from codes as the API takes them. */
export const regionsOf = (...codes: string[]) =>
  codes.map((code) => ({
    code,
    type: code.startsWith('continent:') ? 'continent' : code.includes(':') ? 'state' : 'country',
  }));

/** Zone 0 is added (without methods) unless the test gives its own. */
export function snapshotOf(zones: ZoneInput[], rates: TaxRateInputRow[] = []): QuoteSnapshot {
  const withRestOfWorld = zones.some((z) => z.id === 0) ? zones : [zone(0), ...zones];
  return buildSnapshot(1, withRestOfWorld, rates);
}

export const line = (key: string, amount: string, extra: Partial<QuoteRequestFields['lines'][number]> = {}) => ({
  key,
  amount,
  quantity: 1,
  shippingRequired: true,
  weight: '',
  taxClass: '',
  ...extra,
});

export function request(fields: Partial<QuoteRequestFields> & { to?: Partial<QuoteRequestFields['destination']> }) {
  const { to, ...rest } = fields;
  return {
    destination: { country: '', state: '', postcode: '', city: '', ...to },
    lines: [],
    couponFreeShipping: false,
    subtotal: '',
    pricesIncludeTax: false,
    chosenRateId: '',
    ...rest,
  } satisfies QuoteRequestFields;
}

/** The quote as plain strings, easy to compare with hand-written figures. */
export function run(snapshot: QuoteSnapshot, fields: QuoteRequestFields, rounding: TaxRounding = 'line') {
  const q = quote(snapshot, parseQuoteRequest(fields), rounding);
  return {
    zone: q.zone.id,
    rates: q.rates.map((r) => [r.id, fromMinor(r.cost), fromMinor(r.tax)]),
    chosen: q.chosenRateId,
    lines: q.lines.map((l) => [l.key, fromMinor(l.tax)]),
    taxLines: q.taxLines.map((t) => [t.rateId, fromMinor(t.taxTotal), fromMinor(t.shippingTaxTotal)]),
    totals: Object.fromEntries(Object.entries(q.totals).map(([k, v]) => [k, fromMinor(v)])),
  };
}
