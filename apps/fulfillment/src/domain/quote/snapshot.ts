import { parseDecimal } from '@storefront/money';
import { parsePostcodePattern, type PostcodePattern } from '../postcodes';
import type { FreeShippingRequirement } from '../shipping/method-types';
import { moneySettingMinor } from '../shipping/money-setting';
import type { TaxRateValues } from '../tax-rates/tax-rate-values';
import { exact, type Exact } from './exact';

/** Everything a quote reads, prepared once per revision for fast matching. */
export interface QuoteSnapshot {
  revision: number;
  /** Zones other than zone 0, by order then id: the first match wins. */
  zones: MatchableZone[];
  restOfWorld: MatchableZone;
  /** By priority, order, id. */
  taxRates: MatchableTaxRate[];
}

export type ActiveMethod =
  | { kind: 'flat_rate' | 'local_pickup'; instanceId: number; title: string; costMinor: bigint }
  | { kind: 'free_shipping'; instanceId: number; title: string; requires: FreeShippingRequirement; minAmountMinor: bigint };

export interface MatchableZone {
  id: number;
  name: string;
  order: number;
  countries: ReadonlySet<string>;
  /** "US:CA" */
  states: ReadonlySet<string>;
  continents: ReadonlySet<string>;
  postcodes: PostcodePattern[];
  /** Enabled methods only, by order then instance id. */
  methods: ActiveMethod[];
}

export interface MatchableTaxRate {
  id: number;
  country: string;
  state: string;
  postcodes: PostcodePattern[];
  cities: ReadonlySet<string>;
  /** rate / 100 as an exact fraction ("20.0000" -> 1/5). */
  fraction: Exact;
  rateText: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
  order: number;
  class: string;
}

/** Zone and method rows as stored. */
export interface ZoneInput {
  id: number;
  name: string;
  order: number;
  regions: Array<{ code: string; type: string }>;
  postcodes: string[];
  methods: Array<{ instanceId: number; methodId: string; title: string; enabled: boolean; order: number; settings: Record<string, unknown> }>;
}

export type TaxRateInputRow = TaxRateValues & { id: number };

export function buildSnapshot(revision: number, zones: ZoneInput[], taxRates: TaxRateInputRow[]): QuoteSnapshot {
  const matchable = zones.map(matchableZone);
  const restOfWorld = matchable.find((z) => z.id === 0) ?? emptyRestOfWorld();
  return {
    revision,
    zones: matchable.filter((z) => z.id !== 0).sort((a, b) => a.order - b.order || a.id - b.id),
    restOfWorld: { ...restOfWorld, countries: new Set(), states: new Set(), continents: new Set(), postcodes: [] },
    taxRates: taxRates.map(matchableTaxRate).sort((a, b) => a.priority - b.priority || a.order - b.order || a.id - b.id),
  };
}

function matchableZone(zone: ZoneInput): MatchableZone {
  const codes = (type: string) => new Set(zone.regions.filter((r) => r.type === type).map((r) => r.code));
  return {
    id: zone.id,
    name: zone.name,
    order: zone.order,
    countries: codes('country'),
    states: codes('state'),
    continents: new Set([...codes('continent')].map((c) => c.replace(/^continent:/, ''))),
    postcodes: patterns(zone.postcodes),
    methods: zone.methods
      .filter((m) => m.enabled)
      .sort((a, b) => a.order - b.order || a.instanceId - b.instanceId)
      .flatMap((m) => activeMethod(m) ?? []),
  };
}

function activeMethod(m: ZoneInput['methods'][number]): ActiveMethod | undefined {
  const base = { instanceId: m.instanceId, title: m.title };
  switch (m.methodId) {
    case 'flat_rate':
    case 'local_pickup':
      return { ...base, kind: m.methodId, costMinor: BigInt(moneySettingMinor(m.settings.cost)) };
    case 'free_shipping':
      return {
        ...base,
        kind: 'free_shipping',
        requires: (m.settings.requires as FreeShippingRequirement) ?? 'none',
        minAmountMinor: BigInt(moneySettingMinor(m.settings.min_amount)),
      };
    default:
      return undefined;
  }
}

function matchableTaxRate(rate: TaxRateInputRow): MatchableTaxRate {
  return {
    id: rate.id,
    country: rate.country,
    state: rate.state,
    postcodes: patterns(rate.postcode ? rate.postcode.split(';') : []),
    cities: new Set(rate.city ? rate.city.split(';') : []),
    // Percent with 4 places -> fraction of the amount: "20.0000" -> 200000 / 1000000.
    fraction: exact(parseDecimal(rate.rate, 4), 1_000_000n),
    rateText: rate.rate,
    name: rate.name,
    priority: rate.priority,
    compound: rate.compound,
    shipping: rate.shipping,
    order: rate.order,
    class: rate.class,
  };
}

/** Stored patterns were validated on write; anything unparsable simply never matches. */
function patterns(texts: string[]): PostcodePattern[] {
  return texts.map(parsePostcodePattern).filter((p): p is PostcodePattern => !('problem' in p));
}

function emptyRestOfWorld(): MatchableZone {
  return {
    id: 0,
    name: 'Locations not covered by your other zones',
    order: 0,
    countries: new Set(),
    states: new Set(),
    continents: new Set(),
    postcodes: [],
    methods: [],
  };
}
