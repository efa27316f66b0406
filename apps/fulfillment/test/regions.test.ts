import { describe, expect, it } from '@jest/globals';
import { CONTINENTS } from '../src/domain/regions/continents';
import { COUNTRY_NAMES } from '../src/domain/regions/countries';
import { regions } from '../src/domain/regions';

describe('region table', () => {
  it('has every ISO 3166-1 country in exactly one continent', () => {
    const codes = COUNTRY_NAMES.map(([code]) => code);
    expect(codes).toHaveLength(249);
    const placed = CONTINENTS.flatMap((c) => c.countries);
    expect(placed.filter((code, i) => placed.indexOf(code) !== i)).toEqual([]);
    expect([...placed].sort()).toEqual([...codes].sort());
  });

  it('knows the states of the countries whose addresses use them', () => {
    const us = regions.country('us')!;
    expect(us).toMatchObject({ code: 'US', name: 'United States', continent: 'NA', stateLabel: 'State', stateRequired: true });
    const usStates = us.states.map((s) => s.code);
    // 50 states, DC, 6 outlying areas and 3 military codes
    expect(usStates).toHaveLength(60);
    expect(usStates).toEqual(expect.arrayContaining(['CA', 'DC', 'PR', 'GU', 'VI', 'AA']));
    expect(regions.country('CA')!.states).toHaveLength(13);
    expect(regions.country('AU')!.states).toHaveLength(8);
    expect(regions.country('JP')!.states[12]).toEqual({ code: '13', name: 'Tokyo' });
    expect(regions.country('IT')!.states.map((s) => s.code)).toEqual(expect.arrayContaining(['RM', 'MI', 'AO']));
    expect(regions.country('ES')!.states).toHaveLength(52);
    expect(regions.isState('CN', 'BJ')).toBe(true);
    expect(regions.isState('CN', 'HK')).toBe(false);
    expect(regions.country('IE')!.stateLabel).toBe('County');
    expect(regions.country('JP')!.stateLabel).toBe('Prefecture');
  });

  it('describes free-text state fields of countries without a list', () => {
    expect(regions.country('GB')).toMatchObject({ stateLabel: 'County', stateRequired: false, states: [] });
    expect(regions.country('SE')).toMatchObject({ stateLabel: 'State / County', stateRequired: false, states: [] });
    expect(regions.hasStates('GB')).toBe(false);
  });

  it('has continents with names', () => {
    expect(regions.allContinents().map((c) => [c.code, c.name])).toEqual([
      ['AF', 'Africa'],
      ['AN', 'Antarctica'],
      ['AS', 'Asia'],
      ['EU', 'Europe'],
      ['NA', 'North America'],
      ['OC', 'Oceania'],
      ['SA', 'South America'],
    ]);
    expect(regions.continentOf('de')).toBe('EU');
  });

  it('has no state code twice in a country', () => {
    for (const country of regions.allCountries()) {
      const codes = country.states.map((s) => s.code);
      expect([country.code, new Set(codes).size]).toEqual([country.code, codes.length]);
    }
  });
});
