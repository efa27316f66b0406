import type { fulfillment } from '@storefront/proto/fulfillment';
import { methodType, type MethodType } from '../domain/shipping/method-types';
import type { Country, Continent } from '../domain/regions';
import type { MethodInstanceRecord, ZoneRecord } from '../persistence/shipping.repository';

export function toProtoMethod(m: MethodInstanceRecord): fulfillment.MethodInstance {
  const type = methodType(m.methodId);
  return {
    instanceId: m.instanceId,
    methodId: m.methodId,
    zoneId: m.zoneId,
    name: m.title,
    enabled: m.enabled,
    order: m.order,
    methodTitle: type?.title ?? m.methodId,
    methodDescription: type?.description ?? '',
    settings: m.settings,
  };
}

export function toProtoZone(z: ZoneRecord): fulfillment.ShippingZone {
  return {
    id: z.id,
    name: z.name,
    order: z.order,
    locations: z.regions.map((r) => ({ code: r.code, type: r.type })),
    postcodes: z.postcodes.join('\n'),
    methods: z.methods.map(toProtoMethod),
  };
}

export function toProtoMethodType(t: MethodType): fulfillment.MethodType {
  return { id: t.id, title: t.title, description: t.description, settingsSchema: t.settingsSchema };
}

export function toProtoCountry(c: Country): fulfillment.Country {
  return {
    code: c.code,
    name: c.name,
    continent: c.continent,
    stateLabel: c.stateLabel,
    stateRequired: c.stateRequired,
    states: c.states.map((s) => ({ code: s.code, name: s.name })),
  };
}

export function toProtoContinent(c: Continent): fulfillment.Continent {
  return { code: c.code, name: c.name, countries: [...c.countries] };
}
