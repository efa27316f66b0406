import { DomainError, unprocessable } from '@storefront/errors';
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

/**
 * Fulfillment's refusal of the destination (400 naming `country`: not an ISO
 * 3166-1 code it knows) as what it is to a shopper: a checkout field error
 * (422) on the country field it came from. Anything else: undefined.
 */
export function destinationFieldError(err: unknown, fields: Record<string, string>): DomainError | undefined {
  if (!DomainError.is(err) || err.code !== 'rest_invalid_param') return undefined;
  if (!(err.data?.params as Record<string, unknown> | undefined)?.country) return undefined;
  const key = fields.shipping_country ? 'shipping_country' : 'billing_country';
  return unprocessable('shop_checkout_invalid_fields', 'Please choose a valid country.', { fields: { [key]: 'Please choose a valid country.' } });
}
