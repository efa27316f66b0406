import { exact, type Exact } from './exact';
import { roundLineTaxes, type TaxRounding } from './rounding';
import type { MatchableTaxRate } from './snapshot';
import { exclusiveTaxes, inclusiveTaxes } from './tax-calculation';
import type { QuoteLineInput, RateAmount } from './quote-types';

/** Each line's taxes by rate, rounded per `rounding` (see roundLineTaxes). */
export function lineTaxes(
  lines: readonly QuoteLineInput[],
  ratesFor: (taxClass: string) => MatchableTaxRate[],
  pricesIncludeTax: boolean,
  rounding: TaxRounding,
): RateAmount[][] {
  const calculate = pricesIncludeTax ? inclusiveTaxes : exclusiveTaxes;
  const exactByLine = lines.map((line) => calculate(exact(line.amount), ratesFor(line.taxClass)));
  // Group each rate's unrounded taxes across lines, so subtotal rounding sees them together.
  const byRate = new Map<number, Array<{ line: number; tax: Exact }>>();
  exactByLine.forEach((taxes, line) => {
    for (const { rate, tax } of taxes) {
      const entries = byRate.get(rate.id) ?? byRate.set(rate.id, []).get(rate.id)!;
      entries.push({ line, tax });
    }
  });
  const rounded = new Map<string, bigint>();
  for (const [rateId, entries] of byRate) {
    const cents = roundLineTaxes(entries.map((e) => e.tax), rounding);
    entries.forEach((e, i) => rounded.set(`${e.line}:${rateId}`, cents[i]));
  }
  return exactByLine.map((taxes, line) =>
    taxes.map(({ rate }) => ({ rateId: rate.id, amount: rounded.get(`${line}:${rate.id}`)! })),
  );
}
