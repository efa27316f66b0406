import { minorToNumber, toMinor } from '@storefront/money';

/**
 * A money setting (cost, min_amount): a JSON number or numeric string, at
 * least 0, at most 2 decimal places. Stored and returned as a JSON number
 * (the contract's shape); the engine reads it back in minor units.
 */
export function parseMoneySetting(value: unknown): { value: number } | { problem: string } {
  if (typeof value !== 'number' && typeof value !== 'string') return { problem: 'must be a number.' };
  let minor: number;
  try {
    minor = toMinor(value === '' ? 0 : value);
  } catch {
    return { problem: 'must be an amount with at most 2 decimal places.' };
  }
  if (minor < 0) return { problem: 'must not be negative.' };
  if (!Number.isSafeInteger(minor)) return { problem: 'is too large.' };
  return { value: minorToNumber(minor) };
}

/** A stored money setting in minor units. */
export function moneySettingMinor(value: unknown): number {
  return typeof value === 'number' || typeof value === 'string' ? toMinor(value) : 0;
}
