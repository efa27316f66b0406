export { RegionTable, regions } from './region-table';
export { stateFieldOf } from './state-field';
export type { Continent, ContinentCode, Country, CountryStates } from './types';
