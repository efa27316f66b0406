import { describe, expect, it } from '@jest/globals';
import { ean13CheckDigit, isValidEan13, randomInStoreEan13 } from '../../src/domain/inventory/ean13';

describe('EAN-13', () => {
  it('computes the check digit of known codes', () => {
    expect(ean13CheckDigit('400638133393')).toBe(1); // 4006381333931
    expect(ean13CheckDigit('978030640615')).toBe(7); // 9780306406157
    expect(ean13CheckDigit('200000000000')).toBe(8);
  });

  it('validates length, digits and check digit', () => {
    expect(isValidEan13('4006381333931')).toBe(true);
    expect(isValidEan13('4006381333932')).toBe(false);
    expect(isValidEan13('400638133393')).toBe(false);
    expect(isValidEan13('40063813339a1')).toBe(false);
    expect(() => ean13CheckDigit('12')).toThrow(RangeError);
  });

  it('generates in-store codes (prefix 2) with a valid check digit', () => {
    for (let i = 0; i < 200; i++) {
      const code = randomInStoreEan13();
      expect(code).toMatch(/^2\d{12}$/);
      expect(isValidEan13(code)).toBe(true);
    }
    expect(randomInStoreEan13(() => 0)).toBe('2000000000008');
  });
});
