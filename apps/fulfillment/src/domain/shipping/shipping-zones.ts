import { ShippingZone } from '../../persistence/entities';
import { bumpQuoteRevision } from '../../persistence/revision.repository';
import {
  loadZone,
  loadZones,
  replaceLocations,
  REST_OF_WORLD_ZONE_ID,
  type ZoneRecord,
} from '../../persistence/shipping.repository';
import { restOfWorldZoneLocked, zoneNotFound } from '../errors';
import type { FulfillmentDeps } from '../deps';
import { zoneLocations, zoneName, zoneOrder, zonePostcodes } from './zone-values';

export interface ZoneFields {
  name?: string;
  /** Region codes ("US", "US:CA", "continent:EU"); replaces the zone's regions when present. */
  locations?: string[];
  /** Newline-separated postcode patterns; replaces the zone's postcodes when present. */
  postcodes?: string;
  order?: number;
}

/** Shipping zones (the gateway has already required manage_options). */
export class ShippingZones {
  constructor(private readonly deps: FulfillmentDeps) {}

  list(): Promise<ZoneRecord[]> {
    return loadZones(this.deps.db.em());
  }

  async get(id: number): Promise<ZoneRecord> {
    const zone = await loadZone(this.deps.db.em(), id);
    if (!zone) throw zoneNotFound();
    return zone;
  }

  async create(fields: ZoneFields & { name: string }): Promise<ZoneRecord> {
    const name = zoneName(fields.name);
    const order = zoneOrder(fields.order ?? 0);
    const regions = zoneLocations(fields.locations ?? []);
    const postcodes = zonePostcodes(fields.postcodes ?? '');
    const id = await this.deps.db.em().transactional(async (em) => {
      const zone = em.create(ShippingZone, { name, order });
      await em.flush();
      await replaceLocations(em, zone.id, 'regions', regions);
      await replaceLocations(em, zone.id, 'postcodes', postcodes.map((code) => ({ code, type: 'postcode' })));
      await bumpQuoteRevision(em);
      return zone.id;
    });
    return this.get(id);
  }

  async update(id: number, fields: ZoneFields): Promise<ZoneRecord> {
    if (id === REST_OF_WORLD_ZONE_ID) throw restOfWorldZoneLocked('updated');
    const name = fields.name === undefined ? undefined : zoneName(fields.name);
    const order = fields.order === undefined ? undefined : zoneOrder(fields.order);
    const regions = fields.locations && zoneLocations(fields.locations);
    const postcodes = fields.postcodes === undefined ? undefined : zonePostcodes(fields.postcodes);
    await this.deps.db.em().transactional(async (em) => {
      const zone = await em.findOne(ShippingZone, { id });
      if (!zone) throw zoneNotFound();
      if (name !== undefined) zone.name = name;
      if (order !== undefined) zone.order = order;
      await em.flush();
      if (regions) await replaceLocations(em, id, 'regions', regions);
      if (postcodes) await replaceLocations(em, id, 'postcodes', postcodes.map((code) => ({ code, type: 'postcode' })));
      await bumpQuoteRevision(em);
    });
    return this.get(id);
  }

  /** Deletes the zone with its locations and method instances (foreign keys cascade). */
  async delete(id: number): Promise<ZoneRecord> {
    if (id === REST_OF_WORLD_ZONE_ID) throw restOfWorldZoneLocked('deleted');
    return this.deps.db.em().transactional(async (em) => {
      const previous = await loadZone(em, id);
      if (!previous) throw zoneNotFound();
      await em.nativeDelete(ShippingZone, { id });
      await bumpQuoteRevision(em);
      return previous;
    });
  }
}
