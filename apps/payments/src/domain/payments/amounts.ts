import { fromMinor, toMinor } from '@storefront/money';
import { invalidParams } from '@storefront/errors';

/** Currencies without minor units (ISO 4217 exponent 0). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

export function decimalsOf(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

export function checkCurrency(currency: string, field = 'currency'): string {
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw invalidParams({ [field]: `${field} must be an ISO 4217 code.` });
  return code;
}

/** Decimal string -> minor units; 400 rest_invalid_param for anything else. */
export function amountToMinor(amount: string, currency: string, field = 'amount'): number {
  try {
    const minor = toMinor(amount, decimalsOf(currency));
    if (minor < 0 || !Number.isSafeInteger(minor)) throw new RangeError('out of range');
    return minor;
  } catch {
    throw invalidParams({ [field]: `${field} must be a non-negative decimal amount in ${currency || 'the currency'}.` });
  }
}

export function minorToAmount(minor: number, currency: string): string {
  return fromMinor(minor, decimalsOf(currency));
}
