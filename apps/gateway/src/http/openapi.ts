import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Access } from '../auth/access';
import { baseUrl } from './links';
import { ErrorObject } from './responses';

/** One tag per owning service; a route module names its service in `schema.tags`. */
export const SERVICE_TAGS: Record<string, string> = {
  gateway: 'The gateway itself: health, readiness, discovery.',
  customers: 'Accounts, sessions, application passwords, the customer dashboard and site settings (customers service).',
  catalog: 'Products, categories, tags, coupons, stock and inventory codes (catalog service).',
  fulfillment: 'Tax rates, shipping zones and methods, countries and states (fulfillment service).',
  payments: 'Payment gateways, saved payment methods and payment steps (payments service).',
  orders: 'Orders and the signed-in customer\'s orders (orders service).',
  cart: 'Cart, checkout and mini-cart (cart service).',
  notifications: 'Email logs, activity logs and downloads (notifications service).',
};

const DOCUMENTED = /^\/(shop|platform)\/v1(\/|$)|^\/(healthz|readyz)$/;

/** Example server of the offline document; the served one names the server it is served from. */
const DEFAULT_SERVER = 'http://localhost:8080';

type Json = Record<string, unknown>;

const FIELDS_PARAM = {
  type: 'string',
  description: 'Only these fields, comma-separated; dotted paths reach nested ones (`id,title.rendered`).',
};

interface RouteSchema {
  operationId?: string;
  tags?: string[];
  summary?: string;
  hide?: boolean;
  querystring?: Json;
  params?: Json;
  body?: Json;
  response?: Record<string, Json>;
  security?: unknown;
  [key: string]: unknown;
}

const registered = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route registered on `app` (for the documentation conformance test). */
export function registeredRoutes(app: FastifyInstance): RouteOptions[] {
  return registered.get(app) ?? [];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route registered only to answer 404 rest_no_route (a path a parametric route would otherwise take): never documented. */
    noRoute?: boolean;
  }
}

/** Whether a route belongs in the OpenAPI document (documented routes must declare operationId, tags, summary, 2xx). */
export function isDocumentedRoute(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): boolean {
  const methods = ([] as string[]).concat(route.method);
  if (methods.includes('OPTIONS') || methods.every((m) => m === 'HEAD')) return false;
  if (route.config?.noRoute) return false;
  return DOCUMENTED.test(route.url) && route.url !== '/shop/v1/openapi.json';
}

/**
 * OpenAPI 3.1 generated from the very TypeBox schemas that validate requests
 * and serialize responses, served at `/shop/v1/openapi.json`, with an
 * interactive page at `/docs`. Operation-level security follows each
 * route's `config.access`; titled schemas become `components.schemas`.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RouteOptions[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => void routes.push(route));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront commerce REST API',
        version: 'shop/v1',
        summary: 'Headless commerce: catalog, customers, cart, checkout, orders, payments, fulfillment.',
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Storefront maintainers (see README.md of the repository)' },
      },
      servers: [{ url: DEFAULT_SERVER, description: 'This server (the served document names the host it is served from).' }],
      components: {
        securitySchemes: {
          cookieNonce: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Platform-Nonce',
            description:
              'Browser session: the `shop_session` cookie set by `POST /shop/v1/auth/login` plus the nonce it returns in ' +
              '`X-Platform-Nonce` (or `GET /platform/v1/nonce`). Same origin only.',
          },
          applicationPassword: {
            type: 'http',
            scheme: 'basic',
            description:
              'HTTP Basic with the login and an application password (`POST /platform/v1/users/me/application-passwords`); ' +
              'the account password is refused.',
          },
          publishableKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Shop-PK',
            description:
              'Publishable key of the embeddable-checkout addon for cart and checkout routes; without a key handler installed, keyed requests are 401.',
          },
        },
        schemas: { Error: JSON.parse(JSON.stringify(ErrorObject)) },
      },
    },
    hideUntagged: false,
    transform: ({ schema, url, route }) => {
      if (!isDocumentedRoute(route)) return { schema: { ...(schema ?? {}), hide: true } as never, url };
      return { schema: documentRoute(route, (schema ?? {}) as RouteSchema) as never, url };
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as unknown as { openapiObject: Json }).openapiObject) as never,
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      docExpansion: 'list',
      deepLinking: true,
      tryItOutEnabled: false,
      persistAuthorization: true,
      displayOperationId: true,
      // Cookie sessions from the same origin: remember the nonce a login (or /platform/v1/nonce) hands out
      // and send it with later requests that carry no Authorization header.
      responseInterceptor: (res: { headers?: Record<string, string> }) => {
        const nonce = res.headers && res.headers['x-platform-nonce'];
        if (nonce) (globalThis as unknown as { shopNonce?: string }).shopNonce = nonce;
        return res;
      },
      requestInterceptor: (req: { headers: Record<string, string>; credentials?: string }) => {
        const nonce = (globalThis as unknown as { shopNonce?: string }).shopNonce;
        const hasAuth = Object.keys(req.headers).some((h) => /^(authorization|x-platform-nonce)$/i.test(h));
        if (nonce && !hasAuth) req.headers['X-Platform-Nonce'] = nonce;
        req.credentials = 'same-origin';
        return req;
      },
    } as never,
    theme: { title: 'Storefront API' },
    transformSpecification: (spec, request) => withServer(spec as Json, request),
  });

  app.get('/shop/v1/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async (request) =>
    withServer(structuredClone(app.swagger() as unknown as Json), request),
  );
}

function withServer(spec: Json, request: FastifyRequest): Json {
  spec.servers = [{ url: baseUrl(request), description: 'This server.' }];
  return spec;
}

const DESCRIPTION = [
  'The REST API of the store: `shop/v1` (the commerce resources) and `platform/v1` (sessions, nonces, application passwords, site options).',
  '',
  'Errors are `{code, message, data: {status}}` (`Error` schema). Lists take `page` / `per_page` and answer with',
  '`X-Platform-Total`, `X-Platform-TotalPages` and `Link` headers. Reads accept `_fields` (comma-separated top-level',
  'or dotted fields) and answer cacheable reads with `ETag` (send `If-None-Match` for a 304).',
  '',
  'Authentication: a browser session (cookie + `X-Platform-Nonce`), or HTTP Basic with an application password.',
].join('\n');

/** Error statuses every route of a kind can answer, added to the declared ones. */
function implicitErrors(route: Pick<RouteOptions, 'url' | 'method' | 'config'>, schema: RouteSchema): number[] {
  const access = route.config?.access as Access | undefined;
  const statuses = new Set<number>();
  if (route.url === '/healthz') return [];
  statuses.add(503);
  if (schema.querystring || schema.params || schema.body) statuses.add(400);
  if (schema.params) statuses.add(404);
  // Any write may carry a body, declared or not: too large or of another type is refused before the route.
  const methods = ([] as string[]).concat(route.method);
  if (schema.body || methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) {
    statuses.add(413);
    statuses.add(415);
  }
  // Credentials are checked on every API route, public ones too: wrong ones are 401, too many wrong ones 429.
  if ((access && access !== 'public') || /^\/(shop|platform)\/v1\//.test(route.url)) {
    statuses.add(401);
    statuses.add(429);
  }
  if (access === 'admin' || access === 'content' || typeof access === 'object') statuses.add(403);
  if (/^\/shop\/v1\/(cart|checkout|mini-cart)(\/|$)/.test(route.url)) statuses.add(401);
  return [...statuses];
}

/** OpenAPI security requirements of an access tier. */
export function securityOf(access: Access | undefined, url: string): Array<Record<string, string[]>> {
  const session: Array<Record<string, string[]>> = [{ cookieNonce: [] }, { applicationPassword: [] }];
  if (/^\/shop\/v1\/(cart|checkout|mini-cart)(\/|$)/.test(url)) return [{}, ...session, { publishableKey: [] }];
  if (!access || access === 'public') return [];
  // Content routes answer guests (published items) and decide per record.
  if (access === 'content') return [{}, ...session];
  return session;
}

/** A JSON Schema object whose properties with a `default` are not required (the server fills them in). */
function relaxDefaults(schema: Json | undefined): Json | undefined {
  if (!schema || typeof schema !== 'object') return schema;
  const copy = JSON.parse(JSON.stringify(schema)) as Json;
  const visit = (node: Json) => {
    const properties = node.properties as Record<string, Json> | undefined;
    if (properties && Array.isArray(node.required)) {
      node.required = (node.required as string[]).filter((name) => properties[name]?.default === undefined);
      if (!(node.required as string[]).length) delete node.required;
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(node[key])) (node[key] as Json[]).forEach(visit);
    }
  };
  visit(copy);
  return copy;
}

function documentRoute(route: RouteOptions, schema: RouteSchema): RouteSchema {
  const access = route.config?.access as Access | undefined;
  const out: RouteSchema = { ...schema };
  for (const part of ['querystring', 'params', 'body'] as const) {
    if (out[part]) out[part] = relaxDefaults(out[part]);
  }
  if (([] as string[]).concat(route.method).includes('GET') && route.url.match(/^\/(shop|platform)\/v1\//)) {
    const query = (out.querystring ?? { type: 'object', properties: {} }) as Json;
    query.properties = { ...(query.properties as Json), _fields: FIELDS_PARAM };
    out.querystring = query;
  }
  const response: Record<string, Json> = { ...(schema.response ?? {}) };
  for (const status of implicitErrors(route, schema)) {
    if (!response[status]) response[status] = { ...JSON.parse(JSON.stringify(ErrorObject)), description: 'Error.' };
  }
  if (([] as string[]).concat(route.method).includes('GET') && route.url !== '/healthz' && route.url !== '/readyz') {
    response[304] ??= { type: 'null', description: 'Not modified: If-None-Match matched the current ETag.' };
  }
  for (const [status, value] of Object.entries(response)) {
    if (status.startsWith('2') && !value.description) response[status] = { ...value, description: 'Success.' };
  }
  out.response = response;
  if (out.security === undefined) out.security = securityOf(access, route.url);
  return out;
}

/** Whole-document passes: unique operationIds, enums, request bodies, component schemas, tags. */
function finishDocument(doc: Json): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const seen = new Set<string>();
  for (const [url, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      // Methods of one route share the operation object: give each its own.
      const own = JSON.parse(JSON.stringify(operation)) as Json;
      item[method] = own;
      uniqueOperationId(own, method, seen, url);
      fixRequestBody(own, method);
    }
  }
  collapseEnums(doc.paths);
  renameContextKeyword(doc.paths);
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  hoistTitled(doc.paths, schemas);
  collapseEnums(schemas);
  renameContextKeyword(schemas);
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  doc.components = components;
  const used = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      for (const tag of ((operation as Json)?.tags as string[] | undefined) ?? []) used.add(tag);
    }
  }
  doc.tags = [...used].sort().map((name) => ({ name, description: SERVICE_TAGS[name] ?? `${name} service.` }));
  return doc;
}

/**
 * A route registered for several methods (PUT and PATCH) shares its
 * operationId; the first method keeps it, the others take their own verb
 * (`updateCustomer` -> `patchCustomer`).
 */
function uniqueOperationId(operation: Json, method: string, seen: Set<string>, url: string): void {
  let id = operation.operationId as string | undefined;
  if (!id) return;
  if (seen.has(id)) {
    const noun = id.replace(/^[a-z]+/, '');
    id = `${method.toLowerCase()}${noun}`;
    let n = 2;
    while (seen.has(id)) id = `${method.toLowerCase()}${noun}${n++}`;
    operation.operationId = id;
  }
  seen.add(id);
  void url;
}

/** A body with no required field (and every DELETE body) is optional; a `null` alternative is dropped. */
function fixRequestBody(operation: Json, method: string): void {
  const body = operation.requestBody as Json | undefined;
  if (!body) return;
  const content = body.content as Record<string, { schema?: Json }> | undefined;
  let required = false;
  for (const media of Object.values(content ?? {})) {
    const schema = media.schema;
    if (schema && Array.isArray(schema.anyOf)) {
      const options = (schema.anyOf as Json[]).filter((s) => s.type !== 'null');
      if (options.length === 1) media.schema = { ...options[0], ...(schema.description ? { description: schema.description } : {}) };
    }
    if (Array.isArray(media.schema?.required) && (media.schema.required as unknown[]).length) required = true;
  }
  body.required = method.toLowerCase() === 'delete' ? false : required;
}

const isConstOption = (s: Json) =>
  s && typeof s === 'object' && (s.const !== undefined || (Array.isArray(s.enum) && s.enum.length === 1)) &&
  Object.keys(s).every((k) => ['const', 'enum', 'type', 'description', 'title'].includes(k));

/** `anyOf` of single constants (TypeBox unions of literals) -> `enum`. */
function collapseEnums(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(collapseEnums);
  const obj = node as Json;
  for (const value of Object.values(obj)) collapseEnums(value);
  const options = obj.anyOf as Json[] | undefined;
  if (Array.isArray(options) && options.length > 0 && options.every(isConstOption)) {
    const values = options.map((s) => (s.const !== undefined ? s.const : (s.enum as unknown[])[0]));
    const types = [...new Set(options.map((s) => s.type).filter(Boolean))];
    delete obj.anyOf;
    if (types.length === 1) obj.type = types[0];
    obj.enum = values;
  }
}

/** Schemas with a `title` become `components.schemas[title]`, referenced by `$ref` (children first). */
function hoistTitled(root: unknown, schemas: Record<string, Json>): void {
  const keyOf = (s: Json) => {
    const { description: _d, ...rest } = s;
    void _d;
    return JSON.stringify(rest);
  };
  const known = new Map<string, string>(Object.entries(schemas).map(([name, s]) => [keyOf(s), name]));
  const visit = (node: unknown, isSchemaMap = false): unknown => {
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((n) => visit(n));
    const obj = node as Json;
    for (const [key, value] of Object.entries(obj)) {
      // property names / status codes are keys of maps, never schemas themselves
      obj[key] = visit(value, key === 'properties' || key === 'patternProperties');
    }
    if (isSchemaMap) return obj;
    const title = obj.title;
    if (typeof title !== 'string' || !(obj.type === 'object' || obj.properties || obj.type === 'array')) return obj;
    const key = keyOf(obj);
    let name = known.get(key);
    if (!name) {
      name = title.replace(/[^A-Za-z0-9._-]/g, '');
      let n = 2;
      while (schemas[name]) name = `${title}${n++}`;
      const { description: _d, ...component } = obj;
      void _d;
      schemas[name] = component;
      known.set(key, name);
    }
    return { $ref: `#/components/schemas/${name}`, ...(typeof obj.description === 'string' ? { description: obj.description } : {}) };
  };
  visit(root);
}

/** The host platform's `context` annotation (which contexts show a field) as the extension `x-context`. */
function renameContextKeyword(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(renameContextKeyword);
  const obj = node as Json;
  if (Array.isArray(obj.context) && (obj.context as unknown[]).every((c) => typeof c === 'string')) {
    obj['x-context'] = obj.context;
    delete obj.context;
  }
  for (const value of Object.values(obj)) renameContextKeyword(value);
}
