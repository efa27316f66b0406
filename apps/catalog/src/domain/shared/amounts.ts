import { invalidParams } from '@storefront/errors';
import { formatDecimal, parseDecimal } from '@storefront/money';

// numeric(14,2): twelve digits before the point.
const MAX_MINOR = 10n ** 14n - 1n;

/** A non-negative money amount with at most two decimals, normalized to "12.50". */
export function requireAmount(field: string, value: string): string {
  let minor: bigint;
  try {
    minor = parseDecimal(value, 2);
  } catch {
    throw invalidParams({ [field]: `${field} must be a decimal number with at most 2 decimals.` });
  }
  if (minor < 0n || minor > MAX_MINOR) {
    throw invalidParams({ [field]: `${field} must be between 0 and 999999999999.99.` });
  }
  return formatDecimal(minor, 2);
}

/** Like requireAmount, but an empty string means "none". */
export function optionalAmount(field: string, value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  return requireAmount(field, value);
}
