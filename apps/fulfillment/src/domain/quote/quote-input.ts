import { invalidParams } from '@storefront/errors';
import { isDecimal, parseDecimal } from '@storefront/money';
import { regions } from '../regions';
import { TAX_CLASSES } from '../tax-rates/tax-rate-values';
import type { Destination } from './destination';
import type { QuoteInput } from './quote-types';

/** A quote request as it arrives: decimal strings and free text. */
export interface QuoteRequestFields {
  destination: { country: string; state: string; postcode: string; city: string };
  lines: Array<{ key: string; amount: string; subtotal?: string; quantity: number; shippingRequired: boolean; weight: string; taxClass: string }>;
  couponFreeShipping: boolean;
  /** "" = the sum of line amounts. */
  subtotal: string;
  pricesIncludeTax: boolean;
  chosenRateId: string;
}

const MAX_LINES = 500;

/** Parses and checks a request; every malformed field is named in one 400 rest_invalid_param. */
export function parseQuoteRequest(fields: QuoteRequestFields): QuoteInput {
  const problems: Record<string, string> = {};
  const destination = parseDestination(fields.destination, problems);
  if (fields.lines.length > MAX_LINES) problems.lines = `At most ${MAX_LINES} lines.`;
  const lines = fields.lines.map((line, i) => ({
    key: line.key,
    amount: money(line.amount, `lines[${i}].amount`, problems),
    subtotal: line.subtotal ? money(line.subtotal, `lines[${i}].subtotal`, problems) : undefined,
    quantity: line.quantity,
    shippingRequired: line.shippingRequired,
    taxClass: taxClass(line.taxClass, `lines[${i}].tax_class`, problems),
  }));
  fields.lines.forEach((line, i) => {
    if (!Number.isInteger(line.quantity) || line.quantity < 0) problems[`lines[${i}].quantity`] = 'must be a non-negative integer.';
    if (line.weight !== '' && !(isDecimal(line.weight) && !line.weight.trim().startsWith('-'))) {
      problems[`lines[${i}].weight`] = 'must be a non-negative decimal number.';
    }
  });
  const subtotal = fields.subtotal === '' ? lines.reduce((s, l) => s + l.amount, 0n) : money(fields.subtotal, 'subtotal', problems);
  if (Object.keys(problems).length) throw invalidParams(problems);
  return {
    destination,
    lines,
    couponFreeShipping: fields.couponFreeShipping,
    subtotal,
    pricesIncludeTax: fields.pricesIncludeTax,
    chosenRateId: fields.chosenRateId,
  };
}

function parseDestination(d: QuoteRequestFields['destination'], problems: Record<string, string>): Destination {
  const country = d.country.trim().toUpperCase();
  const known = country === '' || regions.country(country) !== undefined;
  if (!known) problems.country = `"${d.country}" is not an ISO 3166-1 alpha-2 country code.`;
  return {
    country: known ? country : '',
    state: d.state.trim().toUpperCase(),
    postcode: d.postcode.trim(),
    city: d.city.trim().replace(/\s+/g, ' ').toUpperCase(),
    continent: (known && country && regions.continentOf(country)) || '',
  };
}

/** A non-negative amount with at most 2 decimal places, in minor units. */
function money(value: string, field: string, problems: Record<string, string>): bigint {
  try {
    const minor = parseDecimal(value, 2);
    if (minor >= 0n) return minor;
  } catch {
    // reported below
  }
  problems[field] = `"${value}" is not a non-negative amount with at most 2 decimal places.`;
  return 0n;
}

function taxClass(value: string, field: string, problems: Record<string, string>): string {
  const slug = value.trim().toLowerCase() || 'standard';
  if ((TAX_CLASSES as readonly string[]).includes(slug)) return slug;
  problems[field] = `Unknown tax class "${value}".`;
  return 'standard';
}
