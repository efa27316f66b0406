import { randomInt } from 'node:crypto';

// EAN-13 barcodes. Generated ones use the GS1 in-store range (first digit 2,
// i.e. prefixes 200-299), which never collides with a manufacturer's code.

/** The check digit of 12 digits: weights 1,3,1,3,... from the left; what tops the sum up to a multiple of 10. */
export function ean13CheckDigit(first12: string): number {
  if (!/^\d{12}$/.test(first12)) throw new RangeError('EAN-13 check digit needs exactly 12 digits');
  const sum = [...first12].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidEan13(code: string): boolean {
  return /^\d{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === Number(code[12]);
}

/** A random in-store EAN-13: "2", eleven random digits, the check digit. */
export function randomInStoreEan13(random: (max: number) => number = randomInt): string {
  const body = `2${Array.from({ length: 11 }, () => random(10)).join('')}`;
  return `${body}${ean13CheckDigit(body)}`;
}
