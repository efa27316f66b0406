import { anyPostcodeMatches } from '../postcodes';
import type { Destination } from './destination';
import type { MatchableTaxRate } from './snapshot';

/**
 * The rates that apply to an amount of `taxClass` shipped to `destination`,
 * as WooCommerce matches them: country, state, postcodes and cities each
 * match when empty or equal (postcode ranges and wildcards included); of the
 * matching rates, only the first of each priority applies (rates are already
 * sorted by priority, order, id).
 */
export function matchTaxRates(
  rates: readonly MatchableTaxRate[],
  destination: Destination,
  taxClass: string,
): MatchableTaxRate[] {
  const matched: MatchableTaxRate[] = [];
  const priorities = new Set<number>();
  for (const rate of rates) {
    if (priorities.has(rate.priority) || rate.class !== taxClass || !rateMatches(rate, destination)) continue;
    priorities.add(rate.priority);
    matched.push(rate);
  }
  return matched;
}

function rateMatches(rate: MatchableTaxRate, d: Destination): boolean {
  return (
    (rate.country === '' || rate.country === d.country) &&
    (rate.state === '' || rate.state === d.state) &&
    (rate.postcodes.length === 0 || anyPostcodeMatches(rate.postcodes, d.postcode)) &&
    (rate.cities.size === 0 || rate.cities.has(d.city))
  );
}

/** Shipping is taxed by the matched rates that apply to shipping (priority picked first, as Woo does). */
export function shippingTaxRates(matched: readonly MatchableTaxRate[]): MatchableTaxRate[] {
  return matched.filter((rate) => rate.shipping);
}
