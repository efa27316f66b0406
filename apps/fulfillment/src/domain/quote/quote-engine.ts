import { TAX_CLASSES } from '../tax-rates/tax-rate-values';
import { exact, roundHalfUp } from './exact';
import type { TaxRounding } from './rounding';
import { lineTaxes } from './line-taxes';
import { offeredRates, type OfferedRate } from './shipping-rates';
import type { MatchableTaxRate, QuoteSnapshot } from './snapshot';
import { exclusiveTaxes } from './tax-calculation';
import { matchTaxRates, shippingTaxRates } from './tax-matching';
import { matchZone } from './zone-matching';
import type { QuoteInput, QuoteLineInput, QuoteResult, QuotedRate, RateAmount, TaxLine } from './quote-types';

/**
 * The engine: zone, shipping rates and taxes of a cart going to a
 * destination. Pure: everything it reads is in the snapshot and the input.
 */
export function quote(snapshot: QuoteSnapshot, input: QuoteInput, rounding: TaxRounding): QuoteResult {
  const ratesFor = memoize((taxClass: string) => matchTaxRates(snapshot.taxRates, input.destination, taxClass));
  const zone = matchZone(snapshot, input.destination);
  const needsShipping = input.lines.some((l) => l.shippingRequired);
  const offered = needsShipping ? offeredRates(zone, input) : [];
  const shippingRates = shippingTaxRates(ratesFor(shippingTaxClass(input.lines)));
  const rates = offered.map((rate) => withShippingTax(rate, shippingRates));
  const chosen = rates.find((r) => r.id === input.chosenRateId) ?? rates[0];
  const perLine = lineTaxes(input.lines, ratesFor, input.pricesIncludeTax, rounding);
  const taxLines = summarize(snapshot.taxRates, perLine, chosen?.taxes ?? []);
  return {
    needsShipping,
    zone: { id: zone.id, name: zone.name, order: zone.order },
    rates,
    chosenRateId: chosen?.id ?? '',
    lines: input.lines.map((line, i) => ({ key: line.key, tax: total(perLine[i]), taxes: perLine[i] })),
    taxLines,
    totals: { ...totals(input, taxLines, chosen), itemsSubtotalTax: subtotalTax(input, ratesFor, rounding, perLine) },
    rounding,
  };
}

/** The tax the lines' subtotals (before discounts) hold or add, rounded as the discounted lines' is. */
function subtotalTax(input: QuoteInput, ratesFor: (taxClass: string) => MatchableTaxRate[], rounding: TaxRounding, perLine: RateAmount[][]): bigint {
  if (!input.lines.some((l) => l.subtotal !== undefined && l.subtotal !== l.amount)) return perLine.flat().reduce((s, a) => s + a.amount, 0n);
  const undiscounted = input.lines.map((l) => ({ ...l, amount: l.subtotal ?? l.amount }));
  return lineTaxes(undiscounted, ratesFor, input.pricesIncludeTax, rounding).flat().reduce((s, a) => s + a.amount, 0n);
}

/** Shipping costs exclude tax; each rate's tax is rounded half up on its own. */
function withShippingTax(rate: OfferedRate, taxRates: readonly MatchableTaxRate[]): QuotedRate {
  const taxes = exclusiveTaxes(exact(rate.cost), taxRates).map(({ rate: r, tax }) => ({
    rateId: r.id,
    amount: roundHalfUp(tax),
  }));
  return { ...rate, tax: total(taxes), taxes };
}

/**
 * Shipping takes the tax class of the items it carries (WooCommerce
 * "based on cart items"): standard if any shipped item is standard, else the
 * first class (in class order) among them.
 */
export function shippingTaxClass(lines: readonly QuoteLineInput[]): string {
  const classes = new Set(lines.filter((l) => l.shippingRequired).map((l) => l.taxClass));
  return TAX_CLASSES.find((c) => classes.has(c)) ?? 'standard';
}

/** Totals by rate, in application order, leaving out rates that came to nothing. */
function summarize(rates: readonly MatchableTaxRate[], perLine: RateAmount[][], shipping: RateAmount[]): TaxLine[] {
  const itemTotals = totalsByRate(perLine.flat());
  const shippingTotals = totalsByRate(shipping);
  return rates
    .map((rate) => ({
      rateId: rate.id,
      label: rate.name || 'Tax',
      compound: rate.compound,
      rate: rate.rateText,
      taxTotal: itemTotals.get(rate.id) ?? 0n,
      shippingTaxTotal: shippingTotals.get(rate.id) ?? 0n,
    }))
    .filter((line) => line.taxTotal !== 0n || line.shippingTaxTotal !== 0n);
}

function totals(input: QuoteInput, taxLines: TaxLine[], chosen: QuotedRate | undefined): Omit<QuoteResult['totals'], 'itemsSubtotalTax'> {
  const itemsTotal = input.lines.reduce((s, l) => s + l.amount, 0n);
  const itemsTax = taxLines.reduce((s, l) => s + l.taxTotal, 0n);
  const shippingTotal = chosen?.cost ?? 0n;
  const shippingTax = chosen?.tax ?? 0n;
  const itemsPaid = input.pricesIncludeTax ? itemsTotal : itemsTotal + itemsTax;
  return {
    itemsTotal,
    itemsTax,
    shippingTotal,
    shippingTax,
    taxTotal: itemsTax + shippingTax,
    total: itemsPaid + shippingTotal + shippingTax,
  };
}

function totalsByRate(amounts: RateAmount[]): Map<number, bigint> {
  const byRate = new Map<number, bigint>();
  for (const { rateId, amount } of amounts) byRate.set(rateId, (byRate.get(rateId) ?? 0n) + amount);
  return byRate;
}

const total = (amounts: RateAmount[]) => amounts.reduce((s, a) => s + a.amount, 0n);

function memoize<T>(compute: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => cache.get(key) ?? cache.set(key, compute(key)).get(key)!;
}
