import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { fulfillment } from '@storefront/proto/fulfillment';
import { baseUrl, resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';

const SHIPPING = '/shop/v1/shipping';
export const zoneUrl = (id: number) => `${SHIPPING}/zones/${id}`;
export const zoneMethodsUrl = (zoneId: number) => `${SHIPPING}/zones/${zoneId}/methods`;
export const methodUrl = (methodId: string, instanceId: number) => `${SHIPPING}/methods/${methodId}/${instanceId}`;

/** JSON Schema of a method instance as the REST API shows it (OPTIONS and OpenAPI). */
export const MethodInstanceSchema = Type.Object(
  {
    instance_id: Type.Integer({ readOnly: true }),
    method_id: Type.String({ description: 'Method type (GET /shipping/methods lists them).' }),
    zone_id: Type.Integer(),
    name: Type.String({ description: 'Title shown to customers.' }),
    enabled: Type.Boolean(),
    order: Type.Integer(),
    method_title: Type.String({ readOnly: true }),
    method_description: Type.String({ readOnly: true }),
    settings: Type.Record(Type.String(), Type.Unknown(), {
      description: "Type-specific settings (GET /shipping/methods has each type's schema); also repeated at the top level.",
    }),
    _links: LinksSchema,
  },
  { additionalProperties: true, title: 'ShippingMethodInstance' },
);

/** A method type of the catalog (`GET /shipping/methods`). */
export const MethodTypeSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    settings_schema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the type\'s settings.' }),
    _links: LinksSchema,
  },
  { title: 'ShippingMethodType' },
);

export const ZoneSchema = Type.Object({
  id: Type.Integer({ readOnly: true, description: '0 is "Locations not covered by your other zones".' }),
  zone_name: Type.String(),
  zone_order: Type.Integer(),
  zone_locations: Type.Array(Type.String(), { description: 'Region codes: "US", "US:CA", "continent:EU".' }),
  zone_postcodes: Type.String({ description: 'Newline-separated postcodes, "12*" wildcards, "10000...19999" ranges.' }),
  methods: Type.Array(MethodInstanceSchema, { readOnly: true }),
  _links: LinksSchema,
}, { title: 'ShippingZone' });

/** The method-instance keys that are not settings; a setting never takes one of these names. */
export const METHOD_FIELDS = new Set([
  'instance_id',
  'method_id',
  'zone_id',
  'name',
  'enabled',
  'order',
  'method_title',
  'method_description',
  'settings',
  '_links',
]);

function flattenSettings(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !METHOD_FIELDS.has(key)));
}

export function methodResource(m: fulfillment.MethodInstance, request: FastifyRequest) {
  const settings = m.settings ?? {};
  return {
    instance_id: m.instanceId,
    method_id: m.methodId,
    zone_id: m.zoneId,
    name: m.name,
    enabled: m.enabled,
    order: m.order,
    method_title: m.methodTitle,
    method_description: m.methodDescription,
    settings,
    ...flattenSettings(settings),
    _links: resourceLinks(request, methodUrl(m.methodId, m.instanceId), zoneMethodsUrl(m.zoneId), {
      describes: [{ href: baseUrl(request) + zoneUrl(m.zoneId) }],
    }),
  };
}

export function zoneResource(z: fulfillment.ShippingZone, request: FastifyRequest) {
  return {
    id: z.id,
    zone_name: z.name,
    zone_order: z.order,
    zone_locations: z.locations.map((l) => l.code),
    zone_postcodes: z.postcodes,
    methods: z.methods.map((m) => methodResource(m, request)),
    _links: resourceLinks(request, zoneUrl(z.id), `${SHIPPING}/zones`, {
      methods: [{ href: baseUrl(request) + zoneMethodsUrl(z.id) }],
    }),
  };
}

/** A method type of the catalog; it has no route of its own, so it links to the catalog only. */
export function methodTypeResource(t: fulfillment.MethodType, request: FastifyRequest) {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    settings_schema: t.settingsSchema ?? {},
    _links: { collection: [{ href: `${baseUrl(request)}${SHIPPING}/methods` }] },
  };
}
