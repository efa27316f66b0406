import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import { connectJetStream, InProcessTransport, type EventTransport } from '@storefront/events';
import { createLogger, loadConfig, parseAddons } from '@storefront/service-kit/process';
import { GatewayConfigSchema, type GatewayConfig } from './config';
import { connectServices } from './clients';
import { typed, type GatewayContext, type RouteModule } from './context';
import { installErrorHandling } from './errors/error-handler';
import { installValidation } from './http/validation';
import { frameworkErrorOptions, installInputRules } from './http/input-rules';
import { installApiRoot } from './http/links';
import { installMetaTrimming } from './http/meta-trim';
import { RouteCatalog } from './http/discovery';
import { installOpenApi } from './http/openapi';
import { installAccessControl } from './auth/access';
import { installCallerResolution, requestIdOf } from './auth/caller';
import { installPublishableKeyGate } from './auth/publishable-key';
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

export { GatewayConfigSchema, type GatewayConfig } from './config';

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
];

// Development-only fallback so `npm start` needs no setup; production must set SESSION_SECRET.
const DEV_SESSION_SECRET = 'storefront-development-session-secret-not-for-production';

export interface GatewayOptions {
  env?: NodeJS.ProcessEnv;
  /** Shared in-process event transport (development launcher); otherwise NATS_URL decides. */
  transport?: EventTransport;
  logger?: Logger;
}

export interface Gateway {
  app: FastifyInstance;
  config: GatewayConfig;
  close(): Promise<void>;
}

/** Builds the public REST gateway: every `shop/v1` convention once, then the resource routes. */
export async function buildGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const config = loadConfig(GatewayConfigSchema, options.env ?? process.env);
  if (config.NODE_ENV === 'production' && !config.SESSION_SECRET) {
    throw new Error('SESSION_SECRET is required when NODE_ENV=production');
  }
  const secret = config.SESSION_SECRET ?? DEV_SESSION_SECRET;
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const transport = options.transport ?? (await connectTransport(config, logger));
  const clients = connectServices(config);
  const ctx: GatewayContext = {
    config,
    addons: parseAddons(config.SHOP_ADDONS),
    clients,
    cookies: new SessionCookies(secret),
    nonces: new Nonces(secret),
    cache: new PrincipalCache(config.PRINCIPAL_CACHE_TTL_MS),
    site: new SiteSettingsCache(
      clients.customers.settings,
      config.SITE_SETTINGS_CACHE_TTL_MS,
      logger,
    ),
    responses: new ResponseCache(config.RESPONSE_CACHE_ENTRIES),
  };
  const unsubscribers = [subscribeCacheInvalidation(transport, ctx.cache), ctx.site.subscribe(transport)];
  const unsubscribe = () => unsubscribers.forEach((stop) => stop());
  const release = async () => {
    unsubscribe();
    clients.close();
    if (!options.transport) await transport.close();
  };
  try {
    const app = await createApp(config, ctx, transport, logger, secret);
    return {
      app,
      config,
      async close() {
        await app.close();
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

async function createApp(
  config: GatewayConfig,
  ctx: GatewayContext,
  transport: EventTransport,
  logger: Logger,
  secret: string,
): Promise<FastifyInstance> {
  const { clients } = ctx;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY ?? false,
    genReqId: (req) => requestIdOf(req.headers),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    ...frameworkErrorOptions,
  });
  app.addHook('onSend', async (request, reply) => void reply.header('X-Request-Id', request.id));
  installErrorHandling(app);
  installValidation(app);
  installInputRules(app);
  installApiRoot(app, config.SHOP_SITE_URL);
  await app.register(cookie);
  installPublishableKeyGate(app, '/shop/v1');
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
  const catalog = new RouteCatalog();
  catalog.collect(app);
  await installOpenApi(app);

  healthRoutes(app, clients, transport, ctx.site);
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

async function connectTransport(config: GatewayConfig, logger: Logger): Promise<EventTransport> {
  if (!config.NATS_URL) return new InProcessTransport(config.EVENTS_SUBJECT_PREFIX);
  return connectJetStream({
    url: config.NATS_URL,
    stream: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    name: 'gateway',
    logger,
  });
}
