import { describe, expect, it } from '@jest/globals';
import { parsePostcodeList, parsePostcodePattern, postcodeMatches, type PostcodePattern } from '../src/domain/postcodes';

const pattern = (text: string) => parsePostcodePattern(text) as PostcodePattern;

describe('postcode patterns', () => {
  it.each([
    ['12345', '12345', true],
    ['sw1a 1aa', 'SW1A1AA', true],
    ['SW1A-1AA', 'sw1a 1aa', true],
    ['12*', '12999', true],
    ['12*', '13000', false],
    ['10000...19999', '10000', true],
    ['10000...19999', '19999', true],
    ['10000...19999', '20000', false],
    ['10000 ... 19999', '15000', true],
    ['10000...19999', '1500A', false],
    ['10000...19999', '', false],
  ])('%s matches %s: %s', (text, postcode, expected) => {
    expect(postcodeMatches(pattern(text), postcode)).toBe(expected);
  });

  it.each([
    ['A1...B2', 'numeric ends'],
    ['200...100', 'lower end is above'],
    ['100...', 'not a postcode'],
    ['1*2', 'not a postcode'],
    ['*', 'not a postcode wildcard'],
    ['12.34', 'not a postcode'],
    ['x'.repeat(41), 'longer than'],
  ])('rejects %s', (text, problem) => {
    expect((parsePostcodePattern(text) as { problem: string }).problem).toContain(problem);
  });

  it('parses a list, skipping blanks and duplicates, and names malformed entries', () => {
    expect(parsePostcodeList('90210; 100*;;90210; 10000...10100', /;/).patterns.map((p) => p.text)).toEqual([
      '90210',
      '100*',
      '10000...10100',
    ]);
    expect(parsePostcodeList('ok\n9...1\r\nAB*', /\r?\n/).problems).toEqual(['"9...1": the lower end is above the upper end']);
  });
});
