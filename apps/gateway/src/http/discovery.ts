import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { documented } from './responses';

const NamespaceIndex = Type.Object(
  {
    namespace: Type.String(),
    routes: Type.Record(Type.String(), Type.Object({}, { additionalProperties: true }), {
      description: 'Route -> {namespace, methods, endpoints (with their args), schema}.',
    }),
  },
  { title: 'NamespaceIndex' },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** JSON Schema of the resource a route serves, shown by OPTIONS (schema discovery). */
    itemSchema?: object;
  }
}

interface JsonSchema {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: unknown;
  [key: string]: unknown;
}

interface Endpoint {
  methods: string[];
  args: Record<string, JsonSchema>;
}

/** Routes seen while plugins registered; turned into OPTIONS responses and the namespace index. */
export class RouteCatalog {
  private readonly routes = new Map<string, RouteOptions[]>();
  /** URLs whose module answers OPTIONS itself (e.g. schemas known only at run time). */
  private readonly explicitOptions = new Set<string>();

  collect(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = ([] as string[]).concat(route.method);
      if (methods.includes('OPTIONS')) this.explicitOptions.add(route.url);
      if (methods.includes('OPTIONS') || methods.includes('HEAD') || !/^\/(shop|platform)\/v1/.test(route.url)) return;
      // A route that only answers 404 (see batch.ts) serves nothing to describe.
      if (route.config?.noRoute) return;
      const list = this.routes.get(route.url) ?? [];
      list.push(route);
      this.routes.set(route.url, list);
    });
  }

  /** `OPTIONS <route>` -> `{namespace, methods, endpoints, schema}` (host-platform convention). */
  registerOptionsRoutes(app: FastifyInstance): void {
    for (const [url, routes] of this.routes) {
      if (this.explicitOptions.has(url)) continue;
      const body = this.describe(url, routes);
      app.route({ method: 'OPTIONS', url, config: { access: 'public' }, handler: async () => body });
    }
    for (const namespace of ['shop/v1', 'platform/v1']) {
      const index = {
        namespace,
        routes: Object.fromEntries(
          [...this.routes].filter(([url]) => url.startsWith(`/${namespace}`)).map(([url, r]) => [url, this.describe(url, r)]),
        ),
      };
      const id = namespace === 'shop/v1' ? 'getShopIndex' : 'getPlatformIndex';
      const schema = documented('gateway')(id, `Discover the routes of ${namespace}`, { 200: NamespaceIndex });
      app.get(`/${namespace}`, { config: { access: 'public' }, schema }, async () => index);
    }
  }

  /** `{namespace, methods, endpoints, schema}` of a URL, for modules that answer OPTIONS themselves. */
  describe(url: string, routes: RouteOptions[] = this.routes.get(url) ?? []) {
    const namespace = url.split('/').slice(1, 3).join('/');
    const endpoints: Endpoint[] = routes.map((route) => {
      const methods = ([] as string[]).concat(route.method);
      const schema = route.schema as { querystring?: JsonSchema; body?: JsonSchema } | undefined;
      const source = methods.includes('GET') || methods.includes('DELETE') ? schema?.querystring : schema?.body;
      return { methods, args: argsOf(source) };
    });
    // The declared item schema, else what the route answers (its GET's 200, else any method's 200/201).
    const itemSchema = routes.find((r) => r.config?.itemSchema)?.config?.itemSchema ?? responseSchemaOf(routes);
    return {
      namespace,
      methods: [...new Set(endpoints.flatMap((e) => e.methods))],
      endpoints,
      ...(itemSchema ? { schema: itemSchema } : {}),
    };
  }
}

function argsOf(schema: JsonSchema | undefined): Endpoint['args'] {
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  // A parameter with a default need not be sent (TypeBox lists it as required so the default is filled in).
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {}).map(([name, prop]) => [name, { ...prop, required: required.has(name) && !('default' in prop) }]),
  );
}

function responseSchemaOf(routes: RouteOptions[]): unknown {
  const ordered = [...routes].sort((a, b) => Number(([] as string[]).concat(b.method).includes('GET')) - Number(([] as string[]).concat(a.method).includes('GET')));
  for (const route of ordered) {
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    const schema = (response?.[200] ?? response?.[201]) as { type?: string; items?: unknown } | undefined;
    // A list answers an array of items: the item is what OPTIONS describes.
    if (schema && typeof schema === 'object') return schema.type === 'array' && schema.items ? schema.items : schema;
  }
  return undefined;
}
