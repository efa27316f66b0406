import { fulfillment } from '@storefront/proto/fulfillment';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { FulfillmentDomain } from '../domain';
import { regions } from '../domain/regions';
import { METHOD_TYPES } from '../domain/shipping/method-types';
import { toProtoContinent, toProtoCountry, toProtoMethod, toProtoMethodType, toProtoZone } from './shipping.mappers';

export function shippingHandlers(domain: FulfillmentDomain): ServiceHandlers<typeof fulfillment.ShippingServiceService> {
  return {
    async listZones() {
      return { zones: (await domain.zones.list()).map(toProtoZone) };
    },
    async getZone(req) {
      return { zone: toProtoZone(await domain.zones.get(req.id)) };
    },
    async createZone(req) {
      const zone = await domain.zones.create({
        name: req.name,
        locations: req.locations,
        postcodes: req.postcodes,
        order: req.order,
      });
      return { zone: toProtoZone(zone) };
    },
    async updateZone(req) {
      const zone = await domain.zones.update(req.id, {
        name: req.name,
        locations: req.setLocations ? req.locations : undefined,
        postcodes: req.postcodes,
        order: req.order,
      });
      return { zone: toProtoZone(zone) };
    },
    async deleteZone(req) {
      return { previous: toProtoZone(await domain.zones.delete(req.id)) };
    },
    async listZoneMethods(req) {
      return { methods: (await domain.methods.listForZone(req.zoneId)).map(toProtoMethod) };
    },
    async createZoneMethod(req) {
      const method = await domain.methods.create(req.zoneId, {
        methodId: req.methodId,
        name: req.name,
        enabled: req.enabled,
        order: req.order,
        settings: req.settings,
      });
      return { method: toProtoMethod(method) };
    },
    async getMethod(req) {
      return { method: toProtoMethod(await domain.methods.get(req.methodId, req.instanceId)) };
    },
    async updateMethod(req) {
      const method = await domain.methods.update(req.methodId, req.instanceId, {
        name: req.name,
        zoneId: req.zoneId,
        enabled: req.enabled,
        order: req.order,
        settings: req.settings,
      });
      return { method: toProtoMethod(method) };
    },
    async deleteMethod(req) {
      return { previous: toProtoMethod(await domain.methods.delete(req.methodId, req.instanceId)) };
    },
    async listMethodTypes() {
      return { methodTypes: METHOD_TYPES.map(toProtoMethodType) };
    },
    async listRegions() {
      return {
        continents: regions.allContinents().map(toProtoContinent),
        countries: regions.allCountries().map(toProtoCountry),
      };
    },
  };
}
