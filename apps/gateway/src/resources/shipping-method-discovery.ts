import type { fulfillment } from '@storefront/proto/fulfillment';
import { MethodInstanceSchema } from './shipping';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/**
 * `OPTIONS /shipping/zones/<zone_id>/methods`. The settings of a method
 * instance depend on its type and only the fulfillment service knows the
 * types, so this answer is built per request from `ListMethodTypes` instead
 * of by the route catalog: the POST args list every type's settings (with
 * the types that take each), and the item schema says, per `method_id`,
 * which settings apply (nested under `settings` and at the top level).
 */
export function zoneMethodsDiscovery(createBody: object, types: fulfillment.MethodType[]) {
  return {
    namespace: 'shop/v1',
    methods: ['GET', 'POST'],
    endpoints: [
      { methods: ['GET'], args: {} },
      { methods: ['POST'], args: { ...argsOf(createBody as JsonSchema, types), ...settingArgs(types) } },
    ],
    schema: methodInstanceSchema(types),
  };
}

/** The body's own fields, as WordPress-style args (`required` per field); `method_id` lists the types. */
function argsOf(body: JsonSchema, types: fulfillment.MethodType[]) {
  const required = new Set(body.required ?? []);
  const args = Object.entries(body.properties ?? {}).map(([name, prop]) => [name, { ...prop, required: required.has(name) }]);
  const known = Object.fromEntries(args) as Record<string, Record<string, unknown>>;
  known.method_id = { ...known.method_id, enum: types.map((t) => t.id) };
  return known;
}

function settingArgs(types: fulfillment.MethodType[]) {
  const args: Record<string, Record<string, unknown>> = {};
  for (const type of types) {
    for (const [name, prop] of Object.entries(settingsOf(type).properties ?? {})) {
      const seen = args[name];
      const methodIds = [...((seen?.method_ids as string[] | undefined) ?? []), type.id];
      args[name] = { ...(seen ?? prop), required: false, method_ids: methodIds };
    }
  }
  return args;
}

function methodInstanceSchema(types: fulfillment.MethodType[]) {
  const base = MethodInstanceSchema as unknown as JsonSchema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'shipping_zone_method',
    ...base,
    properties: { ...base.properties, method_id: { ...base.properties!.method_id, enum: types.map((t) => t.id) } },
    allOf: types.map((type) => {
      const settings = settingsOf(type);
      return {
        if: { properties: { method_id: { const: type.id } }, required: ['method_id'] },
        then: { properties: { settings, ...settings.properties } },
      };
    }),
  };
}

/** A type's settings schema without its `$schema` (only the document root may declare the dialect). */
function settingsOf(type: fulfillment.MethodType): JsonSchema {
  const { $schema: _dialect, ...schema } = (type.settingsSchema ?? {}) as JsonSchema;
  return schema;
}
