/**
 * Exact money arithmetic. Amounts travel between services as decimal strings
 * ("19.99") and are computed as integers in minor units (cents), never binary
 * floats; REST responses turn them into JSON numbers at the very end.
 */

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Currencies without minor units (ISO 4217 exponent 0). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** ISO 4217 codes in use (the runtime's ICU list). */
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` (upper case) is an ISO 4217 currency code in use. */
export function isIsoCurrency(code: string): boolean {
  return ISO_CURRENCIES.has(code);
}

/** The minor-unit digits of an ISO 4217 currency (0 for JPY and the like, else 2). */
export function currencyDecimals(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value.trim());
}

/** "12.5" at scale 2 -> 1250n. Rejects non-decimals and digits beyond `scale` that are not zero. */
export function parseDecimal(value: string | number, scale: number): bigint {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  if (!DECIMAL.test(text)) throw new RangeError(`"${value}" is not a decimal number`);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  if (fraction.length > scale && /[1-9]/.test(fraction.slice(scale))) {
    throw new RangeError(`"${value}" has more than ${scale} decimal places`);
  }
  const digits = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  return negative ? -digits : digits;
}

/** 1250n at scale 2 -> "12.50". */
export function formatDecimal(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}

/** Decimal string (or JSON number) -> integer minor units. */
export function toMinor(amount: string | number, decimals = 2): number {
  return Number(parseDecimal(amount, decimals));
}

/** Integer minor units -> decimal string. */
export function fromMinor(minor: number | bigint, decimals = 2): string {
  // Safe integers (every real amount) format without a BigInt: order lists format hundreds per page.
  if (typeof minor === 'number' && Number.isSafeInteger(minor) && decimals > 0) {
    const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
    const text = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
    return minor < 0 ? `-${text}` : text;
  }
  return formatDecimal(BigInt(minor), decimals);
}

/** Integer minor units -> the JSON number a REST response shows. */
export function minorToNumber(minor: number | bigint, decimals = 2): number {
  return Number(fromMinor(minor, decimals));
}

/** Decimal string -> JSON number, exactly as written ("19.90" -> 19.9). */
export function decimalToNumber(amount: string): number {
  return Number(amount);
}

/** n / d rounded half away from zero (the commercial rounding of tax tables). */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (a * 2n + b) / (b * 2n);
  return negative ? -q : q;
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  // Shortest round-trip representation, without exponent for the magnitudes money uses.
  return Math.abs(value) < 1e21 && Math.abs(value) >= 1e-7 || value === 0
    ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
    : value.toFixed(20);
}
