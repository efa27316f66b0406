import { anyPostcodeMatches } from '../postcodes';
import type { Destination } from './destination';
import type { MatchableZone, QuoteSnapshot } from './snapshot';

/**
 * The first zone (by order, then id) whose locations match, else zone 0.
 * As in WooCommerce: a zone without region locations matches every region,
 * and a zone with postcodes also needs one of them to match.
 */
export function matchZone(snapshot: QuoteSnapshot, destination: Destination): MatchableZone {
  return snapshot.zones.find((zone) => zoneMatches(zone, destination)) ?? snapshot.restOfWorld;
}

export function zoneMatches(zone: MatchableZone, d: Destination): boolean {
  return regionMatches(zone, d) && (zone.postcodes.length === 0 || anyPostcodeMatches(zone.postcodes, d.postcode));
}

function regionMatches(zone: MatchableZone, d: Destination): boolean {
  if (!zone.countries.size && !zone.states.size && !zone.continents.size) return true;
  if (!d.country) return false;
  return (
    zone.countries.has(d.country) ||
    (d.state !== '' && zone.states.has(`${d.country}:${d.state}`)) ||
    (d.continent !== '' && zone.continents.has(d.continent))
  );
}
