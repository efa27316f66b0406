import type { QuoteInput } from '../ports';

/** Where the cart ships: the shipping address when one was given, else the billing address. */
export function destinationOf(fields: Record<string, string>): QuoteInput['destination'] {
  const prefix = fields.shipping_country ? 'shipping' : 'billing';
  return {
    country: (fields[`${prefix}_country`] ?? '').toUpperCase(),
    state: fields[`${prefix}_state`] ?? '',
    postcode: fields[`${prefix}_postcode`] ?? '',
    city: fields[`${prefix}_city`] ?? '',
  };
}
