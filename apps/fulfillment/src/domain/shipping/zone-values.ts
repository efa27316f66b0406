import { invalidParams } from '@storefront/errors';
import { parsePostcodeList } from '../postcodes';
import { regions } from '../regions';

export type RegionLocationType = 'country' | 'state' | 'continent';

export interface RegionLocation {
  /** "US", "US:CA" or "continent:EU", uppercase. */
  code: string;
  type: RegionLocationType;
}

const MAX_NAME = 200;

/** zone_name: required and not blank. */
export function zoneName(value: string): string {
  const name = value.trim();
  if (!name) throw invalidParams({ zone_name: 'zone_name must not be empty.' });
  if (name.length > MAX_NAME) throw invalidParams({ zone_name: `zone_name is longer than ${MAX_NAME} characters.` });
  return name;
}

export function zoneOrder(value: number): number {
  if (!Number.isInteger(value) || value < 0) throw invalidParams({ order: 'order must be a non-negative integer.' });
  return value;
}

/** zone_locations: every code must name a region of the table; duplicates collapse. */
export function zoneLocations(codes: readonly string[]): RegionLocation[] {
  const locations = new Map<string, RegionLocation>();
  const unknown: string[] = [];
  for (const raw of codes) {
    const location = parseRegionCode(raw);
    if (location) locations.set(location.code, location);
    else unknown.push(JSON.stringify(raw));
  }
  if (unknown.length) {
    throw invalidParams({ zone_locations: `Unknown region code(s): ${unknown.join(', ')}. Use "US", "US:CA" or "continent:EU".` });
  }
  return [...locations.values()];
}

function parseRegionCode(raw: string): RegionLocation | undefined {
  const code = raw.trim().toUpperCase();
  const continent = /^CONTINENT:([A-Z]{2})$/.exec(code);
  if (continent) return regions.continent(continent[1]) ? { code: `continent:${continent[1]}`, type: 'continent' } : undefined;
  const state = /^([A-Z]{2}):([A-Z0-9]{1,3})$/.exec(code);
  if (state) return regions.isState(state[1], state[2]) ? { code, type: 'state' } : undefined;
  return /^[A-Z]{2}$/.test(code) && regions.country(code) ? { code, type: 'country' } : undefined;
}

/** zone_postcodes: newline-separated patterns, normalized; malformed ones are named. */
export function zonePostcodes(text: string): string[] {
  const { patterns, problems } = parsePostcodeList(text, /\r?\n/);
  if (problems.length) throw invalidParams({ zone_postcodes: problems.join('; ') });
  return patterns.map((p) => p.text);
}
