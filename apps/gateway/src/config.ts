import { Type, type Static } from 'typebox';
import type { RuntimeConfig } from '@storefront/service-kit/process';
import { SERVICE_BINDINGS, type AddressVariable } from './services';

const optionalAddress = () => Type.Optional(Type.String({ minLength: 1 }));
/** `<SVC>_GRPC_ADDR` of every backing service (required in production; see services.ts). */
const addressVariables = Object.fromEntries(SERVICE_BINDINGS.map((binding) => [binding.address, optionalAddress()])) as {
  [K in AddressVariable]: ReturnType<typeof optionalAddress>;
};

/**
 * The gateway's own environment, validated at boot beside the runtime
 * variables every app shares (NODE_ENV, LOG_LEVEL, METRICS_PORT, NATS_URL,
 * EVENTS_*, SHUTDOWN_TIMEOUT_MS: `RuntimeConfigSchema` of libs/service-kit).
 */
export const GatewayConfigSchema = Type.Object({
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  ...addressVariables,
  /** Deadline of every gRPC call made for a request. */
  GRPC_DEADLINE_MS: Type.Integer({ minimum: 50, default: 5000 }),
  /** Signs session cookies and nonces; required in production. */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** How long a resolved session or application password stays cached (events evict earlier). */
  PRINCIPAL_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** How long site options (site URL for links) stay cached; the update event evicts them at once. */
  SITE_SETTINGS_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  /** How long the embed addon's active publishable keys stay cached; a create or revoke evicts them at once. */
  PUBLISHABLE_KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** Rendered responses kept for conditional reads (product reads, admin order pages); 0 turns the cache off. */
  RESPONSE_CACHE_ENTRIES: Type.Integer({ minimum: 0, default: 500 }),
  /** The response cache's bound in bytes of bodies held (besides RESPONSE_CACHE_ENTRIES). */
  RESPONSE_CACHE_MAX_BYTES: Type.Integer({ minimum: 0, default: 32 * 1024 * 1024 }),
  /** Public root URL of the API (`_links`, `Link` headers); default: the listen address. Never taken from Host. */
  SHOP_SITE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  /** Trust X-Forwarded-* from this proxy list (Fastify trustProxy syntax); unset = trust none. */
  TRUST_PROXY: Type.Optional(Type.String()),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /** The `shop/rest_batch_items_limit` of the spec. */
  BATCH_LIMIT: Type.Integer({ minimum: 1, default: 100 }),
  SHOP_ADDONS: Type.Optional(Type.String()),
});
export type GatewayConfig = RuntimeConfig & Static<typeof GatewayConfigSchema>;

/** What a production gateway cannot run without: the session secret and every service address. */
export function requiredInProduction(): string[] {
  return ['SESSION_SECRET', ...SERVICE_BINDINGS.map((binding) => binding.address)];
}
