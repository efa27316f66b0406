import type { EntityManager } from '@mikro-orm/postgresql';
import { ShippingMethodInstance, ShippingZone, ShippingZoneLocation } from './entities';

export const REST_OF_WORLD_ZONE_ID = 0;

export interface MethodInstanceRecord {
  instanceId: number;
  methodId: string;
  zoneId: number;
  title: string;
  enabled: boolean;
  order: number;
  settings: Record<string, unknown>;
}

export interface ZoneRecord {
  id: number;
  name: string;
  order: number;
  /** Region locations (country, state, continent), in the order they were saved. */
  regions: Array<{ code: string; type: string }>;
  postcodes: string[];
  methods: MethodInstanceRecord[];
}

export function toMethodRecord(m: ShippingMethodInstance): MethodInstanceRecord {
  return {
    instanceId: m.instanceId,
    methodId: m.methodId,
    zoneId: m.zone.id,
    title: m.title,
    enabled: m.enabled,
    order: m.order,
    settings: m.settings,
  };
}

/**
 * Zones with their locations and methods in three queries: all of them
 * (zone 0 first, then by order and id) or only `ids`.
 */
export async function loadZones(em: EntityManager, ids?: number[]): Promise<ZoneRecord[]> {
  const zones = await em.find(ShippingZone, ids ? { id: { $in: ids } } : {}, { orderBy: { order: 'asc', id: 'asc' } });
  if (!zones.length) return [];
  const zoneIds = zones.map((z) => z.id);
  const locations = await em.find(ShippingZoneLocation, { zone: { $in: zoneIds } }, { orderBy: { id: 'asc' } });
  const methods = await em.find(
    ShippingMethodInstance,
    { zone: { $in: zoneIds } },
    { orderBy: { order: 'asc', instanceId: 'asc' } },
  );
  const records = zones.map((z) => assemble(z, locations, methods));
  return [...records.filter((z) => z.id === REST_OF_WORLD_ZONE_ID), ...records.filter((z) => z.id !== REST_OF_WORLD_ZONE_ID)];
}

function assemble(zone: ShippingZone, locations: ShippingZoneLocation[], methods: ShippingMethodInstance[]): ZoneRecord {
  const own = locations.filter((l) => l.zone.id === zone.id);
  return {
    id: zone.id,
    name: zone.name,
    order: zone.order,
    regions: own.filter((l) => l.type !== 'postcode').map((l) => ({ code: l.code, type: l.type })),
    postcodes: own.filter((l) => l.type === 'postcode').map((l) => l.code),
    methods: methods.filter((m) => m.zone.id === zone.id).map(toMethodRecord),
  };
}

export async function loadZone(em: EntityManager, id: number): Promise<ZoneRecord | undefined> {
  return (await loadZones(em, [id]))[0];
}

export async function zoneExists(em: EntityManager, id: number): Promise<boolean> {
  return (await em.count(ShippingZone, { id })) > 0;
}

/** Replaces the zone's locations of the given kind: regions (country/state/continent) or postcodes. */
export async function replaceLocations(
  em: EntityManager,
  zoneId: number,
  kind: 'regions' | 'postcodes',
  locations: Array<{ code: string; type: string }>,
): Promise<void> {
  const type = kind === 'postcodes' ? 'postcode' : { $ne: 'postcode' };
  await em.nativeDelete(ShippingZoneLocation, { zone: zoneId, type });
  for (const location of locations) em.create(ShippingZoneLocation, { zone: zoneId, ...location });
  await em.flush();
}

/** The order a new method takes: after the zone's last one. */
export async function nextMethodOrder(em: EntityManager, zoneId: number): Promise<number> {
  const rows = await em.execute<{ next: number }[]>(
    `select coalesce(max("order"), 0) + 1 as next from "fulfillment"."shipping_method_instances" where "zone_id" = ?`,
    [zoneId],
  );
  return Number(rows[0].next);
}
