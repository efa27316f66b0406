/** Continent codes of the region table. */
export type ContinentCode = 'AF' | 'AN' | 'AS' | 'EU' | 'NA' | 'OC' | 'SA';

/** How a country's addresses name their state field, and its states when they use a list. */
export interface CountryStates {
  label: string;
  required: boolean;
  /** [code, name]: the code is the ISO 3166-2 suffix ("CA" for US-CA). */
  states: ReadonlyArray<readonly [string, string]>;
}

export interface Country {
  code: string;
  name: string;
  continent: ContinentCode;
  stateLabel: string;
  stateRequired: boolean;
  states: ReadonlyArray<{ code: string; name: string }>;
}

export interface Continent {
  code: ContinentCode;
  name: string;
  countries: readonly string[];
}
