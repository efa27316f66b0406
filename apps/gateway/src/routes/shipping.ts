import { Type, type Static } from 'typebox';
import { invalidParams } from '@storefront/errors';
import type { FulfillmentClients } from '../clients';
import type { RouteModule, TypedApp } from '../context';
import { setWholeListHeaders } from '../http/pagination';
import { DeletedSchema, documented, errorResponses } from '../http/responses';
import { Id, MAX_ID } from '../http/schemas';
import {
  METHOD_FIELDS,
  MethodInstanceSchema,
  methodResource,
  methodTypeResource,
  MethodTypeSchema,
  methodUrl,
  zoneResource,
  ZoneSchema,
  zoneUrl,
} from '../resources/shipping';
import { regionsResource, RegionsSchema } from '../resources/region';
import { zoneMethodsDiscovery } from '../resources/shipping-method-discovery';

type ShippingClient = FulfillmentClients['shipping'];

const ZoneParams = Type.Object({
  zone_id: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Zone id; 0 is the rest of the world.' }),
});
const MethodParams = Type.Object({
  method_id: Type.String({ minLength: 1, maxLength: 100, description: 'Method type of the instance.' }),
  instance_id: Id('Method instance id.'),
});

const zoneFields = {
  zone_name: Type.String({ minLength: 1, maxLength: 200 }),
  zone_locations: Type.Array(Type.String({ maxLength: 40 }), {
    maxItems: 1000,
    description: 'Region codes: "US", "US:CA", "continent:EU" (case-insensitive). Replaces the locations.',
  }),
  zone_postcodes: Type.String({ maxLength: 100_000, description: 'Newline-separated postcodes, "12*", "10000...19999".' }),
  zone_order: Type.Integer({ minimum: 0, maximum: MAX_ID }),
};
const CreateZoneBody = Type.Object(
  {
    zone_name: zoneFields.zone_name,
    zone_locations: Type.Optional(zoneFields.zone_locations),
    zone_postcodes: Type.Optional(zoneFields.zone_postcodes),
    zone_order: Type.Optional(zoneFields.zone_order),
  },
  { additionalProperties: false },
);
const UpdateZoneBody = Type.Partial(Type.Object(zoneFields), { additionalProperties: false });

const SETTINGS_NOTE =
  "Other top-level keys are the type's settings (GET /shipping/methods or OPTIONS on this route has their schemas).";
const methodFields = {
  name: Type.String({ maxLength: 200, description: 'Title shown to customers; defaults to the type title.' }),
  enabled: Type.Boolean({ description: 'Default true.' }),
  order: Type.Integer({ minimum: 0, maximum: MAX_ID, description: "Default: after the zone's last method." }),
  settings: Type.Record(Type.String(), Type.Unknown(), { description: 'The settings may also be nested here.' }),
};
// additionalProperties stays open: the settings travel at the top level.
const CreateMethodBody = Type.Object(
  {
    method_id: Type.String({ minLength: 1, maxLength: 100, description: 'Method type.' }),
    name: Type.Optional(methodFields.name),
    enabled: Type.Optional(methodFields.enabled),
    order: Type.Optional(methodFields.order),
    settings: Type.Optional(methodFields.settings),
  },
  { description: SETTINGS_NOTE },
);
const UpdateMethodBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    zone_id: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Another zone moves the instance there.' }),
    enabled: Type.Optional(methodFields.enabled),
    order: Type.Optional(methodFields.order),
    settings: Type.Optional(methodFields.settings),
  },
  { description: SETTINGS_NOTE },
);

/**
 * The settings of a method body: its top-level keys that are not method
 * fields, over the nested `settings` object (what a read returns, so a
 * read-modify-write works). The same key with two different values is
 * ambiguous: 400 naming it.
 */
function settingsOf(body: Record<string, unknown>): Record<string, unknown> {
  const nested = (body.settings ?? {}) as Record<string, unknown>;
  const topLevel = Object.fromEntries(Object.entries(body).filter(([key]) => !METHOD_FIELDS.has(key)));
  const conflicts = Object.keys(topLevel).filter(
    (key) => Object.hasOwn(nested, key) && JSON.stringify(nested[key]) !== JSON.stringify(topLevel[key]),
  );
  if (conflicts.length) {
    throw invalidParams(Object.fromEntries(conflicts.map((key) => [key, `${key} differs between the top level and settings.`])));
  }
  return { ...nested, ...topLevel };
}

/** Lists that are never paged still carry the collection headers (one page of everything). */

const config = { access: 'admin' as const };
const doc = documented('fulfillment');
const DeletedZone = DeletedSchema(ZoneSchema, 'DeletedShippingZone');
const DeletedMethod = DeletedSchema(MethodInstanceSchema, 'DeletedShippingMethodInstance');

function zoneRoutes(app: TypedApp, shipping: ShippingClient): void {
  const zoneConfig = { ...config, itemSchema: ZoneSchema };

  app.get(
    '/shipping/zones',
    { config: zoneConfig, schema: doc('listShippingZones', 'List shipping zones', { 200: Type.Array(ZoneSchema) }) },
   async (request, reply) => {
    const { zones } = await shipping.listZones({}, request.caller);
    setWholeListHeaders(request, reply, zones.length);
    return zones.map((zone) => zoneResource(zone, request));
  });

  app.post(
    '/shipping/zones',
    {
      config: zoneConfig,
      schema: { ...doc('createShippingZone', 'Create a shipping zone', { 201: ZoneSchema, ...errorResponses(409, 422) }), body: CreateZoneBody },
    },
    async (request, reply) => {
    const b = request.body;
    const { zone } = await shipping.createZone(
      { name: b.zone_name, locations: b.zone_locations ?? [], postcodes: b.zone_postcodes ?? '', order: b.zone_order },
      request.caller,
    );
    reply.code(201).header('Location', zoneUrl(zone!.id));
    return zoneResource(zone!, request);
  });

  app.get(
    '/shipping/zones/:zone_id',
    { config: zoneConfig, schema: { ...doc('getShippingZone', 'Get a shipping zone', { 200: ZoneSchema }), params: ZoneParams } },
    async (request) => {
    const { zone } = await shipping.getZone({ id: request.params.zone_id }, request.caller);
    return zoneResource(zone!, request);
  });

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/shipping/zones/:zone_id',
    config: zoneConfig,
    schema: {
      ...doc('updateShippingZone', 'Update a shipping zone', { 200: ZoneSchema, ...errorResponses(409, 422) }),
      params: ZoneParams,
      body: UpdateZoneBody,
    },
    handler: async (request) => {
      const { zone_id: id } = request.params as Static<typeof ZoneParams>;
      const b = request.body as Static<typeof UpdateZoneBody>;
      const { zone } = await shipping.updateZone(
        {
          id,
          name: b.zone_name,
          locations: b.zone_locations ?? [],
          setLocations: b.zone_locations !== undefined,
          postcodes: b.zone_postcodes,
          order: b.zone_order,
        },
        request.caller,
      );
      return zoneResource(zone!, request);
    },
  });

  // The spec's zone delete takes no `force`: zones are deleted outright, with their methods.
  app.delete(
    '/shipping/zones/:zone_id',
    {
      config: zoneConfig,
      schema: { ...doc('deleteShippingZone', 'Delete a shipping zone and its methods', { 200: DeletedZone, ...errorResponses(422) }), params: ZoneParams },
    },
    async (request) => {
    const { previous } = await shipping.deleteZone({ id: request.params.zone_id }, request.caller);
    return { deleted: true, previous: zoneResource(previous!, request) };
  });
}

function zoneMethodRoutes(app: TypedApp, shipping: ShippingClient): void {
  const url = '/shipping/zones/:zone_id/methods';
  const methodConfig = { ...config, itemSchema: MethodInstanceSchema };

  app.get(
    url,
    {
      config: methodConfig,
      schema: {
        ...doc('listZoneShippingMethods', 'List the method instances of a zone', { 200: Type.Array(MethodInstanceSchema) }),
        params: ZoneParams,
      },
    },
    async (request, reply) => {
    const { methods } = await shipping.listZoneMethods({ zoneId: request.params.zone_id }, request.caller);
    setWholeListHeaders(request, reply, methods.length);
    return methods.map((method) => methodResource(method, request));
  });

  app.post(
    url,
    {
      config: methodConfig,
      schema: {
        ...doc('createZoneShippingMethod', 'Add a method instance to a zone', { 201: MethodInstanceSchema, ...errorResponses(422) }),
        params: ZoneParams,
        body: CreateMethodBody,
      },
    },
    async (request, reply) => {
    const b = request.body;
    const { method } = await shipping.createZoneMethod(
      {
        zoneId: request.params.zone_id,
        methodId: b.method_id,
        name: b.name,
        enabled: b.enabled,
        order: b.order,
        settings: settingsOf(b),
      },
      request.caller,
    );
    reply.code(201).header('Location', methodUrl(method!.methodId, method!.instanceId));
    return methodResource(method!, request);
  });

  // Explicit, so the route catalog leaves this URL alone: the settings schemas come from the service.
  app.route({
    method: 'OPTIONS',
    url,
    config: { access: 'public' },
    schema: { params: ZoneParams },
    handler: async (request) => {
      const { methodTypes } = await shipping.listMethodTypes({}, request.caller);
      return zoneMethodsDiscovery(CreateMethodBody, methodTypes);
    },
  });
}

function methodInstanceRoutes(app: TypedApp, shipping: ShippingClient): void {
  const url = '/shipping/methods/:method_id/:instance_id';
  const methodConfig = { ...config, itemSchema: MethodInstanceSchema };
  const address = (p: Static<typeof MethodParams>) => ({ methodId: p.method_id, instanceId: p.instance_id });

  app.get(
    url,
    {
      config: methodConfig,
      schema: { ...doc('getShippingMethodInstance', 'Get a shipping method instance', { 200: MethodInstanceSchema }), params: MethodParams },
    },
    async (request) => {
    const { method } = await shipping.getMethod(address(request.params), request.caller);
    return methodResource(method!, request);
  });

  app.route({
    method: ['PUT', 'PATCH'],
    url,
    config: methodConfig,
    schema: {
      ...doc('updateShippingMethodInstance', 'Update a shipping method instance', { 200: MethodInstanceSchema, ...errorResponses(422) }),
      params: MethodParams,
      body: UpdateMethodBody,
    },
    handler: async (request) => {
      const b = request.body as Static<typeof UpdateMethodBody>;
      const { method } = await shipping.updateMethod(
        {
          ...address(request.params as Static<typeof MethodParams>),
          name: b.name,
          zoneId: b.zone_id,
          enabled: b.enabled,
          order: b.order,
          settings: settingsOf(b),
        },
        request.caller,
      );
      return methodResource(method!, request);
    },
  });

  app.delete(
    url,
    {
      config: methodConfig,
      schema: { ...doc('deleteShippingMethodInstance', 'Delete a shipping method instance', { 200: DeletedMethod }), params: MethodParams },
    },
    async (request) => {
    const { previous } = await shipping.deleteMethod(address(request.params), request.caller);
    return { deleted: true, previous: methodResource(previous!, request) };
  });
}

function catalogRoutes(app: TypedApp, shipping: ShippingClient): void {
  app.get(
    '/shipping/methods',
    { config, schema: doc('listShippingMethodTypes', 'List the shipping method types', { 200: Type.Array(MethodTypeSchema) }) },
   async (request, reply) => {
    const { methodTypes } = await shipping.listMethodTypes({}, request.caller);
    setWholeListHeaders(request, reply, methodTypes.length);
    return methodTypes.map((type) => methodTypeResource(type, request));
  });

  app.get(
    '/shipping/regions',
    { config, schema: doc('listShippingRegions', 'List continents, countries and states', { 200: RegionsSchema }) },
   async (request) => regionsResource(await shipping.listRegions({}, request.caller)));
}

/** Shipping zones, their method instances, the method-type catalog and the regions (spec 4.15), manage_options. */
export const shippingRoutes: RouteModule = (app, ctx) => {
  const shipping = ctx.clients.fulfillment?.shipping;
  if (!shipping) return;
  zoneRoutes(app, shipping);
  zoneMethodRoutes(app, shipping);
  methodInstanceRoutes(app, shipping);
  catalogRoutes(app, shipping);
};
