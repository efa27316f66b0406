import { invalidParams } from '@storefront/errors';
import { regions } from './region-table';
import type { Country } from './types';

/** GET /checkout/states: the state field of a country's addresses. */
export function stateFieldOf(countryCode: string): Country {
  const country = regions.country(countryCode);
  if (!country) throw invalidParams({ country_code: `"${countryCode}" is not an ISO 3166-1 alpha-2 country code.` });
  return country;
}
