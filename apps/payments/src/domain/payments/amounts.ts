import { currencyDecimals, fromMinor, toMinor } from '@storefront/money';
import { invalidParams } from '@storefront/errors';

export function checkCurrency(currency: string, field = 'currency'): string {
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw invalidParams({ [field]: `${field} must be an ISO 4217 code.` });
  return code;
}

/** Decimal string -> minor units; 400 rest_invalid_param for anything else. */
export function amountToMinor(amount: string, currency: string, field = 'amount'): number {
  try {
    const minor = toMinor(amount, currencyDecimals(currency));
    if (minor < 0 || !Number.isSafeInteger(minor)) throw new RangeError('out of range');
    return minor;
  } catch {
    throw invalidParams({ [field]: `${field} must be a non-negative decimal amount in ${currency || 'the currency'}.` });
  }
}

export function minorToAmount(minor: number, currency: string): string {
  return fromMinor(minor, currencyDecimals(currency));
}
