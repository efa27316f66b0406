import { add, div, mul, ONE, sub, sum, ZERO, type Exact } from './exact';
import type { MatchableTaxRate } from './snapshot';

/** Unrounded tax of one amount under each rate, in the rates' order. */
export type ExactTaxes = Array<{ rate: MatchableTaxRate; tax: Exact }>;

/**
 * Tax on a price that excludes tax: simple rates apply to the price;
 * compound rates then apply, one after another, to the price plus every tax
 * before them (WooCommerce calc_exclusive_tax).
 */
export function exclusiveTaxes(price: Exact, rates: readonly MatchableTaxRate[]): ExactTaxes {
  const taxes = new Map<MatchableTaxRate, Exact>();
  for (const rate of rates.filter((r) => !r.compound)) taxes.set(rate, mul(price, rate.fraction));
  for (const rate of rates.filter((r) => r.compound)) {
    const base = add(price, sum(taxes.values()));
    taxes.set(rate, mul(base, rate.fraction));
  }
  return rates.map((rate) => ({ rate, tax: taxes.get(rate)! }));
}

/**
 * Tax contained in a price that includes it (WooCommerce calc_inclusive_tax):
 * compound rates are taken out first, last one first; what remains is split
 * between the simple rates in proportion to their rates.
 */
export function inclusiveTaxes(price: Exact, rates: readonly MatchableTaxRate[]): ExactTaxes {
  const taxes = new Map<MatchableTaxRate, Exact>();
  let beforeCompound = price;
  for (const rate of rates.filter((r) => r.compound).reverse()) {
    const net = div(beforeCompound, add(ONE, rate.fraction));
    taxes.set(rate, sub(beforeCompound, net));
    beforeCompound = net;
  }
  const simple = rates.filter((r) => !r.compound);
  const simpleTotal = add(ONE, sum(simple.map((r) => r.fraction)));
  for (const rate of simple) taxes.set(rate, mul(div(rate.fraction, simpleTotal), beforeCompound));
  return rates.map((rate) => ({ rate, tax: taxes.get(rate) ?? ZERO }));
}
