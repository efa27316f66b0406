import { invalidParams } from '@storefront/errors';
import { parseDecimal, formatDecimal } from '@storefront/money';
import { parsePostcodeList } from '../postcodes';
import { regions } from '../regions';

/** Tax classes of the store (WooCommerce's defaults); a line names one, "" meaning standard. */
export const TAX_CLASSES = ['standard', 'reduced-rate', 'zero-rate'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];

/** A tax rate's stored, normalized fields. */
export interface TaxRateValues {
  country: string;
  state: string;
  postcode: string;
  city: string;
  /** Percentage with 4 decimal places ("20.0000"). */
  rate: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
  order: number;
  class: string;
}

/** Fields as a caller sends them; `rate` may be a JSON number. */
export type TaxRateInput = Partial<Omit<TaxRateValues, 'rate'>> & { rate?: string | number };

export const TAX_RATE_DEFAULTS: TaxRateValues = {
  country: '',
  state: '',
  postcode: '',
  city: '',
  rate: '0.0000',
  name: '',
  priority: 1,
  compound: false,
  shipping: true,
  order: 0,
  class: 'standard',
};

const RATE_SCALE = 4;
// numeric(9,4): five integer digits.
const MAX_RATE = 99_999_9999n;
const MAX_INT32 = 2_147_483_647;

type Outcome<T> = { value: T } | { problem: string };

/** Each field's check; `country` is the already normalized country the state belongs to. */
const fieldChecks: {
  [K in keyof TaxRateValues]: (input: Required<TaxRateInput>, country: string) => Outcome<TaxRateValues[K]>;
} = {
  country: (i) => checkCountry(i.country),
  state: (i, country) => checkState(i.state, country),
  postcode: (i) => checkPostcodes(i.postcode),
  city: (i) => checkCities(i.city),
  rate: (i) => checkRate(i.rate),
  name: (i) => checkText(i.name, 'name', 200),
  priority: (i) => checkCount(i.priority, 'priority'),
  compound: (i) => ({ value: i.compound }),
  shipping: (i) => ({ value: i.shipping }),
  order: (i) => checkCount(i.order, 'order'),
  class: (i) => checkClass(i.class),
};

/**
 * Validates and normalizes a complete set of fields (defaults or the stored
 * rate merged with the caller's changes); every malformed field is named in
 * one 400 rest_invalid_param.
 */
export function normalizeTaxRate(input: Required<TaxRateInput>): TaxRateValues {
  const values: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  const country = checkCountry(input.country);
  const countryCode = 'value' in country ? country.value : '';
  for (const [field, check] of Object.entries(fieldChecks)) {
    const result = check(input, countryCode);
    if ('problem' in result) problems[field] = result.problem;
    else values[field] = result.value;
  }
  if (Object.keys(problems).length) throw invalidParams(problems);
  return values as unknown as TaxRateValues;
}

function checkCountry(value: string): Outcome<string> {
  const code = value.trim().toUpperCase();
  if (!code) return { value: '' };
  return regions.country(code) ? { value: code } : { problem: `"${value}" is not an ISO 3166-1 alpha-2 country code.` };
}

function checkState(value: string, country: string): Outcome<string> {
  const state = value.trim().toUpperCase();
  if (!state) return { value: '' };
  if (!country) return { problem: 'A state needs a country.' };
  if (state.length > 200) return { problem: 'state is longer than 200 characters.' };
  if (regions.hasStates(country) && !regions.isState(country, state)) {
    return { problem: `"${value}" is not a state code of ${country}.` };
  }
  return { value: state };
}

function checkPostcodes(value: string): Outcome<string> {
  const { patterns, problems } = parsePostcodeList(value, /;/);
  if (problems.length) return { problem: problems.join('; ') };
  return { value: patterns.map((p) => p.text).join(';') };
}

function checkCities(value: string): Outcome<string> {
  const cities = [...new Set(value.split(';').map((c) => c.trim().replace(/\s+/g, ' ').toUpperCase()).filter(Boolean))];
  const tooLong = cities.find((c) => c.length > 200);
  return tooLong ? { problem: `"${tooLong}" is longer than 200 characters.` } : { value: cities.join(';') };
}

function checkRate(value: string | number): Outcome<string> {
  let scaled: bigint;
  try {
    scaled = parseDecimal(value, RATE_SCALE);
  } catch {
    return { problem: `"${value}" is not a decimal percentage with at most ${RATE_SCALE} decimal places.` };
  }
  if (scaled < 0n || scaled > MAX_RATE) return { problem: 'rate must be between 0 and 99999.9999.' };
  return { value: formatDecimal(scaled, RATE_SCALE) };
}

function checkText(value: string, field: string, max: number): Outcome<string> {
  const text = value.trim();
  return text.length > max ? { problem: `${field} is longer than ${max} characters.` } : { value: text };
}

function checkCount(value: number, field: string): Outcome<number> {
  return Number.isInteger(value) && value >= 0 && value <= MAX_INT32
    ? { value }
    : { problem: `${field} must be a non-negative integer.` };
}

function checkClass(value: string): Outcome<string> {
  const slug = value.trim().toLowerCase() || 'standard';
  return (TAX_CLASSES as readonly string[]).includes(slug)
    ? { value: slug }
    : { problem: `Unknown tax class "${value}" (one of ${TAX_CLASSES.join(', ')}).` };
}
