import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildGateway, GatewayConfigSchema, type Gateway } from '../src/app';
import { isDocumentedRoute, registeredRoutes } from '../src/http/openapi';

// Every route the gateway registers (those of every helper's module once
// merged) must carry its documentation: an operationId, one tag, a summary
// and a 2xx response schema. Built offline: no service is called.
let gateway: Gateway;
let app: FastifyInstance;
let doc: any;

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  for (const name of Object.keys(GatewayConfigSchema.properties)) if (name.endsWith('_GRPC_ADDR')) env[name] = '127.0.0.1:9';
  gateway = await buildGateway({ env });
  app = gateway.app;
  doc = app.swagger();
}, 60_000);
afterAll(() => gateway?.close());

const label = (route: RouteOptions) => `${([] as string[]).concat(route.method).join(',')} ${route.url}`;

describe('route documentation', () => {
  it('every documented route declares operationId, one tag, a summary and a 2xx response schema', () => {
    const routes = registeredRoutes(app).filter(isDocumentedRoute);
    expect(routes.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const route of routes) {
      const schema = (route.schema ?? {}) as Record<string, any>;
      if (typeof schema.operationId !== 'string' || !/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(schema.operationId)) {
        problems.push(`${label(route)}: operationId (verbNoun)`);
      }
      if (!Array.isArray(schema.tags) || schema.tags.length !== 1) problems.push(`${label(route)}: exactly one tag`);
      if (typeof schema.summary !== 'string' || !schema.summary) problems.push(`${label(route)}: summary`);
      const success = Object.keys(schema.response ?? {}).filter((status) => /^2\d\d$/.test(status));
      // A deprecated operation may only answer its deprecation error (POST /payment).
      if (!success.length && !schema.deprecated) problems.push(`${label(route)}: a 2xx response schema`);
      if (!route.config?.access) problems.push(`${label(route)}: config.access`);
    }
    expect(problems).toEqual([]);
  });

  it('operationIds are unique and every operation has security, responses and a described status', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(Array.isArray(op.security)).toBe(true);
        if (!op.deprecated) expect(Object.keys(op.responses).some((s) => s.startsWith('2'))).toBe(true);
        if (method === 'delete' && op.requestBody) expect(op.requestBody.required).toBe(false);
        for (const param of op.parameters ?? []) {
          if (param.schema?.default !== undefined) expect(`${path} ${param.name} required=${param.required}`).toMatch(/=false$/);
        }
      }
    }
  });

  it('hoists titled schemas into components and renders enums', () => {
    for (const name of ['Product', 'Coupon', 'Customer', 'TaxRate', 'ShippingZone', 'Error', 'Profile']) {
      expect(doc.components.schemas[name]).toBeDefined();
    }
    const list = doc.paths['/shop/v1/shop_product'].get;
    expect(list.responses['200'].content['application/json'].schema.items.$ref).toBe('#/components/schemas/Product');
    const orderby = list.parameters.find((p: any) => p.name === 'orderby');
    expect(orderby.schema.enum.length).toBeGreaterThan(3);
    expect(orderby.required).toBe(false);
    expect(doc.paths['/shop/v1/customer'].post.responses['201']).toBeDefined();
  });

  it('derives security from the access tier', () => {
    expect(doc.paths['/shop/v1/customer'].get.security).toEqual([{ cookieNonce: [] }, { applicationPassword: [] }]);
    expect(doc.paths['/shop/v1/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/shop/v1/shop_product'].get.security).toContainEqual({});
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
