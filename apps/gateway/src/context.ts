import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Addon } from '@storefront/service-kit/process';
import type { ServiceClients } from './clients';
import type { GatewayConfig } from './config';
import type { Nonces } from './auth/nonce';
import type { PrincipalCache } from './auth/principal-cache';
import type { SessionCookies } from './auth/session-cookie';
import type { SiteSettingsCache } from './site-settings';
import type { ResponseCache } from './http/response-cache';
import type { PublishableKeyCache } from './auth/publishable-key';

/** What route modules get: config, service clients and the session machinery. */
export interface GatewayContext {
  config: GatewayConfig;
  addons: Addon[];
  clients: ServiceClients;
  cookies: SessionCookies;
  nonces: Nonces;
  cache: PrincipalCache;
  /** Site options (site URL for links), cached and invalidated by events. */
  site: SiteSettingsCache;
  /** Rendered responses of conditional reads (see http/response-cache). */
  responses: ResponseCache;
  /** The embed addon's active publishable keys; undefined without the addon. */
  publishableKeys?: PublishableKeyCache;
}

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
export type TypedApp = ReturnType<typeof typed>;

/** A route module registers its routes on the TypeBox-typed instance. */
export type RouteModule = (app: TypedApp, ctx: GatewayContext) => void;
