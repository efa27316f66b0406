import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import { normalizeTaxRate, TAX_RATE_DEFAULTS, type TaxRateInput } from '../src/domain/tax-rates/tax-rate-values';

const normalize = (fields: TaxRateInput) => normalizeTaxRate({ ...TAX_RATE_DEFAULTS, ...fields });

function problems(fields: TaxRateInput): Record<string, string> {
  try {
    normalize(fields);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect([(err as DomainError).code, (err as DomainError).status]).toEqual(['rest_invalid_param', 400]);
    return (err as DomainError).data.params as Record<string, string>;
  }
  throw new Error('expected rest_invalid_param');
}

describe('tax rate fields', () => {
  it('normalizes codes, lists and the rate', () => {
    expect(
      normalize({ country: 'us', state: 'ca', postcode: ' 90210 ; 100* ', city: 'San Francisco; oakland', rate: 7.25 }),
    ).toMatchObject({ country: 'US', state: 'CA', postcode: '90210;100*', city: 'SAN FRANCISCO;OAKLAND', rate: '7.2500' });
    expect(normalize({ rate: '20' }).rate).toBe('20.0000');
    // zeros beyond 4 places are harmless; other digits there are refused (below)
    expect(normalize({ rate: '0.12340000' }).rate).toBe('0.1234');
  });

  it('accepts a free-text state for countries without a state list', () => {
    expect(normalize({ country: 'GB', state: 'Kent' }).state).toBe('KENT');
  });

  it('names every malformed field', () => {
    expect(Object.keys(problems({ country: 'XX', rate: 'abc', postcode: '5...1', priority: -1 })).sort()).toEqual([
      'country',
      'postcode',
      'priority',
      'rate',
    ]);
    expect(problems({ country: 'US', state: 'ZZ' })).toHaveProperty('state');
    expect(problems({ state: 'CA' })).toHaveProperty('state');
    expect(problems({ rate: '1.23456' })).toHaveProperty('rate');
    expect(problems({ rate: '-1' })).toHaveProperty('rate');
    expect(problems({ rate: '1e3' })).toHaveProperty('rate');
    expect(problems({ class: 'luxury' })).toHaveProperty('class');
  });
});
