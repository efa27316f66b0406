import { decimalToNumber } from '@storefront/money';

/** Decimal string -> JSON number (spec: money is a float); absent or "" (no price) -> null. */
export function amountOrNull(amount: string | undefined): number | null {
  return amount ? decimalToNumber(amount) : null;
}
