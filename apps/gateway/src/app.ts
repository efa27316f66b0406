import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import type { EventTransport } from '@storefront/events';
import type { Tracing } from '@storefront/telemetry';
import { parseAddons, startRuntime, type Metrics, type RuntimeOptions } from '@storefront/service-kit/process';
import { GatewayConfigSchema, requiredInProduction, type GatewayConfig } from './config';
import { connectServices } from './clients';
import { typed, type GatewayContext, type RouteModule } from './context';
import { installErrorHandling } from './errors/error-handler';
import { installValidation } from './http/validation';
import { frameworkErrorOptions, installInputRules } from './http/input-rules';
import { installApiRoot } from './http/links';
import { installMetaTrimming } from './http/meta-trim';
import { RouteCatalog } from './http/discovery';
import { installOpenApi } from './http/openapi';
import { installHttpConventions } from './http/conventions';
import { installAccessControl } from './auth/access';
import { installCallerResolution, requestIdOf } from './auth/caller';
import { installTracing } from './http/tracing';
import { installPublishableKeyGate, PublishableKeyCache } from './auth/publishable-key';
import { subscribeCacheInvalidation } from './auth/invalidation';
import { Nonces } from './auth/nonce';
import { PrincipalCache } from './auth/principal-cache';
import { SessionCookies } from './auth/session-cookie';
import { SiteSettingsCache } from './site-settings';
import { ResponseCache } from './http/response-cache';
import { healthRoutes } from './routes/health';
import { authRoutes } from './routes/auth';
import { customerRoutes } from './routes/customers';
import { meRoutes } from './routes/me';
import { settingsRoutes } from './routes/settings';
import { platformRoutes } from './routes/platform';
import { taxRoutes } from './routes/taxes';
import { shippingRoutes } from './routes/shipping';
import { regionRoutes } from './routes/regions';
import { CATALOG_ROUTES } from './routes/catalog';
import { paymentRoutes } from './routes/payments';
import { ORDER_ROUTES } from './routes/orders';
import { NOTIFICATIONS_ROUTES } from './routes/notifications';
import { DOWNLOAD_ROUTES } from './routes/fulfillment';
import { cartServiceRoutes } from './routes/cart';

export { GatewayConfigSchema, type GatewayConfig } from './config';
export { offlineOpenApiDocument } from './http/offline-document';

/** Routes of `shop/v1`, one module per resource. */
const SHOP_ROUTES: RouteModule[] = [
  authRoutes,
  customerRoutes,
  meRoutes,
  settingsRoutes,
  ...CATALOG_ROUTES,
  taxRoutes,
  shippingRoutes,
  regionRoutes,
  paymentRoutes,
  ...ORDER_ROUTES,
  ...NOTIFICATIONS_ROUTES,
  ...DOWNLOAD_ROUTES,
  cartServiceRoutes,
];

// Development-only fallback so `npm start` needs no setup; production must set SESSION_SECRET.
const DEV_SESSION_SECRET = 'storefront-development-session-secret-not-for-production';

export type GatewayOptions = RuntimeOptions;

export interface Gateway {
  app: FastifyInstance;
  config: GatewayConfig;
  /** Port of `/metrics` (-1 when METRICS_PORT=-1). */
  metricsPort: number;
  close(): Promise<void>;
}

/**
 * Builds the public REST gateway on the runtime every app shares (config with
 * production guards, logger, metrics, event transport, shutdown), then every
 * `shop/v1` convention once, then the resource routes.
 */
export async function buildGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const runtime = await startRuntime({ name: 'gateway', config: GatewayConfigSchema, requiredInProduction }, options);
  const { config, logger, transport } = runtime;
  const secret = config.SESSION_SECRET ?? DEV_SESSION_SECRET;
  try {
    const clients = connectServices(config, runtime.tracing);
    runtime.onShutdown(async () => clients.close());
    const addons = parseAddons(config.SHOP_ADDONS);
    const ctx: GatewayContext = {
      config,
      addons,
      clients,
      cookies: new SessionCookies(secret),
      nonces: new Nonces(secret),
      cache: new PrincipalCache(config.PRINCIPAL_CACHE_TTL_MS),
      site: new SiteSettingsCache(clients.customers.settings, config.SITE_SETTINGS_CACHE_TTL_MS, logger),
      responses: new ResponseCache(config.RESPONSE_CACHE_ENTRIES, config.RESPONSE_CACHE_MAX_BYTES),
      publishableKeys: addons.includes('embed')
        ? new PublishableKeyCache(clients.customers.publishableKey, config.PUBLISHABLE_KEY_CACHE_TTL_MS)
        : undefined,
    };
    const unsubscribers = [subscribeCacheInvalidation(transport, ctx.cache), ctx.site.subscribe(transport)];
    if (ctx.publishableKeys) unsubscribers.push(ctx.publishableKeys.subscribe(transport));
    runtime.onShutdown(async () => unsubscribers.forEach((stop) => stop()));
    const app = await createApp(config, ctx, transport, logger, runtime.metrics, secret, runtime.tracing);
    runtime.onShutdown(() => app.close());
    const metricsPort = await runtime.serveMetrics();
    return { app, config, metricsPort, close: () => runtime.close() };
  } catch (err) {
    await runtime.close();
    throw err;
  }
}

async function createApp(
  config: GatewayConfig,
  ctx: GatewayContext,
  transport: EventTransport,
  logger: Logger,
  metrics: Metrics,
  secret: string,
  tracing: Tracing | undefined,
): Promise<FastifyInstance> {
  const { clients } = ctx;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY ?? false,
    genReqId: (req) => requestIdOf(req.headers),
    requestIdHeader: false,
    // A path parameter up to 500 characters reaches its route (a cart line key too long to be one is 404 there, not the router's 414).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    ...frameworkErrorOptions,
  });
  if (tracing) installTracing(app, tracing);
  // Synchronous hooks take Fastify's `done` callback: an async function would cost a promise and a
  // microtask per hook on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpLatency.observe({ method: request.method, route, code: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
  installErrorHandling(app);
  installValidation(app);
  installInputRules(app);
  installApiRoot(app, config.SHOP_SITE_URL);
  await app.register(cookie);
  installPublishableKeyGate(app, '/shop/v1', ctx.publishableKeys);
  installCallerResolution(app, {
    clients: clients.customers,
    cookies: ctx.cookies,
    nonces: ctx.nonces,
    cache: ctx.cache,
    secret,
    requireHttpsForBasic: config.NODE_ENV === 'production',
  });
  installAccessControl(app);
  installMetaTrimming(app);
  await installHttpConventions(app);
  const catalog = new RouteCatalog();
  catalog.collect(app);
  await installOpenApi(app);

  healthRoutes(app, clients, transport);
  await app.register(
    async (shop) => {
      for (const routes of SHOP_ROUTES) routes(typed(shop), ctx);
    },
    { prefix: '/shop/v1' },
  );
  await app.register(async (platform) => platformRoutes(typed(platform), ctx), { prefix: '/platform/v1' });
  await app.after();
  catalog.registerOptionsRoutes(app);
  await app.ready();

  return app;
}
