import { compare, floorParts, roundHalfUp, sum, type Exact } from './exact';

export type TaxRounding = 'line' | 'subtotal';

/**
 * Rounds one rate's unrounded tax on each line to whole cents.
 * line: each line on its own, half up.
 * subtotal: the rate's total once, half up; its cents are then given to the
 * lines by largest remainder (ties to the earlier line), so lines still add
 * up to the total.
 */
export function roundLineTaxes(taxes: readonly Exact[], mode: TaxRounding): bigint[] {
  if (mode === 'line') return taxes.map(roundHalfUp);
  const parts = taxes.map(floorParts);
  let spare = roundHalfUp(sum(taxes)) - parts.reduce((total, p) => total + p.whole, 0n);
  const rounded = parts.map((p) => p.whole);
  const byRemainder = parts
    .map((p, index) => ({ index, rest: p.rest }))
    .sort((a, b) => compare(b.rest, a.rest) || a.index - b.index);
  for (const { index } of byRemainder) {
    if (spare <= 0n) break;
    rounded[index] += 1n;
    spare -= 1n;
  }
  return rounded;
}
