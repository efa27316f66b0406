import { describe, expect, it } from '@jest/globals';
import { currencyDecimals, divRoundHalfUp, formatDecimal, fromMinor, minorToNumber, parseDecimal, toMinor } from '../src';

describe('money', () => {
  it('parses and formats decimals exactly', () => {
    expect(parseDecimal('12.5', 2)).toBe(1250n);
    expect(parseDecimal('-0.01', 2)).toBe(-1n);
    expect(parseDecimal('20.0000', 4)).toBe(200000n);
    expect(parseDecimal('1.230', 2)).toBe(123n);
    expect(formatDecimal(5n, 2)).toBe('0.05');
    expect(formatDecimal(-1234n, 2)).toBe('-12.34');
    expect(formatDecimal(7n, 0)).toBe('7');
  });

  it('rejects what is not a decimal or is too precise', () => {
    expect(() => parseDecimal('abc', 2)).toThrow(RangeError);
    expect(() => parseDecimal('1e3', 2)).toThrow(RangeError);
    expect(() => parseDecimal('1.005', 2)).toThrow(RangeError);
    expect(() => parseDecimal('', 2)).toThrow(RangeError);
  });

  it('converts JSON numbers without float artefacts', () => {
    expect(toMinor(0.3)).toBe(30);
    expect(() => toMinor(0.1 + 0.2)).toThrow(RangeError); // 0.30000000000000004 is not a money amount
    expect(toMinor(19.99)).toBe(1999);
    expect(fromMinor(1999)).toBe('19.99');
    expect([fromMinor(0), fromMinor(5), fromMinor(-5), fromMinor(-1999), fromMinor(1999n), fromMinor(12345, 3), fromMinor(7, 0)]).toEqual(
      ['0.00', '0.05', '-0.05', '-19.99', '19.99', '12.345', '7'],
    );
    expect(minorToNumber(1990)).toBe(19.9);
  });

  it('rounds half away from zero', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divRoundHalfUp(4n, 3n)).toBe(1n);
    expect(divRoundHalfUp(1999n * 200000n, 1000000n)).toBe(400n); // 19.99 at 20 % = 3.998 -> 4.00
  });
});

describe('currencyDecimals', () => {
  it('is 0 for currencies without minor units (any case) and 2 otherwise', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('krw')).toBe(0);
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('EUR')).toBe(2);
  });
});
