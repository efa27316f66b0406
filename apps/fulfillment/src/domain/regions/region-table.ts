import { DEFAULT_STATE_FIELD, FREE_TEXT_STATE_LABELS } from './address-labels';
import { CONTINENTS } from './continents';
import { COUNTRY_NAMES } from './countries';
import { AFRICA_STATES } from './states-africa';
import { AMERICAS_STATES } from './states-americas';
import { ASIA_STATES } from './states-asia';
import { EUROPE_STATES } from './states-europe';
import { OCEANIA_STATES } from './states-oceania';
import type { Continent, ContinentCode, Country, CountryStates } from './types';

const STATE_LISTS: Readonly<Record<string, CountryStates>> = {
  ...AMERICAS_STATES,
  ...EUROPE_STATES,
  ...ASIA_STATES,
  ...AFRICA_STATES,
  ...OCEANIA_STATES,
};

function buildCountries(): Map<string, Country> {
  const continentOf = new Map<string, ContinentCode>();
  for (const continent of CONTINENTS) for (const code of continent.countries) continentOf.set(code, continent.code);
  const countries = new Map<string, Country>();
  for (const [code, name] of COUNTRY_NAMES) {
    const list = STATE_LISTS[code];
    countries.set(code, {
      code,
      name,
      continent: continentOf.get(code)!,
      stateLabel: list?.label ?? FREE_TEXT_STATE_LABELS[code] ?? DEFAULT_STATE_FIELD.label,
      stateRequired: list?.required ?? DEFAULT_STATE_FIELD.required,
      states: (list?.states ?? []).map(([stateCode, stateName]) => ({ code: stateCode, name: stateName })),
    });
  }
  return countries;
}

/**
 * The one region table: ISO 3166-1 countries with their continent, ISO 3166-2
 * states for the countries whose addresses use a state list, and address
 * labels. Lookups are case-insensitive; codes come back uppercase.
 */
export class RegionTable {
  private readonly countries = buildCountries();
  private readonly stateCodes = new Map<string, Set<string>>(
    [...this.countries.values()].map((c) => [c.code, new Set(c.states.map((s) => s.code))]),
  );
  private readonly continents = new Map<string, Continent>(CONTINENTS.map((c) => [c.code, c]));

  /** By English name. */
  allCountries(): Country[] {
    return [...this.countries.values()];
  }

  allContinents(): Continent[] {
    return [...this.continents.values()];
  }

  country(code: string): Country | undefined {
    return this.countries.get(code.trim().toUpperCase());
  }

  continent(code: string): Continent | undefined {
    return this.continents.get(code.trim().toUpperCase());
  }

  /** True when the country's addresses pick the state from a list. */
  hasStates(countryCode: string): boolean {
    return (this.stateCodes.get(countryCode.toUpperCase())?.size ?? 0) > 0;
  }

  isState(countryCode: string, stateCode: string): boolean {
    return this.stateCodes.get(countryCode.toUpperCase())?.has(stateCode.trim().toUpperCase()) ?? false;
  }

  continentOf(countryCode: string): ContinentCode | undefined {
    return this.country(countryCode)?.continent;
  }
}

/** Built once per process: the table is static data. */
export const regions = new RegionTable();
