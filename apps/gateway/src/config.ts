import { Type, type Static } from 'typebox';

/** Gateway environment, validated at boot. */
export const GatewayConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  CUSTOMERS_GRPC_ADDR: Type.String({ minLength: 1, default: '127.0.0.1:50051' }),
  CATALOG_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  FULFILLMENT_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Deadline of every gRPC call made for a request. */
  GRPC_DEADLINE_MS: Type.Integer({ minimum: 50, default: 5000 }),
  /** Signs session cookies and nonces; required in production. */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** How long a resolved session or application password stays cached (events evict earlier). */
  PRINCIPAL_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** How long site options (site URL for links) stay cached; the update event evicts them at once. */
  SITE_SETTINGS_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  /** Rendered responses kept for conditional reads (guests' product reads); 0 turns the cache off. */
  RESPONSE_CACHE_ENTRIES: Type.Integer({ minimum: 0, default: 500 }),
  /** Public root URL of the API (`_links`, `Link` headers); default: the listen address. Never taken from Host. */
  SHOP_SITE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  /** Trust X-Forwarded-* from this proxy list (Fastify trustProxy syntax); unset = trust none. */
  TRUST_PROXY: Type.Optional(Type.String()),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /** The `shop/rest_batch_items_limit` of the spec. */
  BATCH_LIMIT: Type.Integer({ minimum: 1, default: 100 }),
  SHOP_ADDONS: Type.Optional(Type.String()),
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls)://' })),
  EVENTS_STREAM: Type.String({ default: 'SHOP' }),
  EVENTS_SUBJECT_PREFIX: Type.String({ default: 'shop' }),
});
export type GatewayConfig = Static<typeof GatewayConfigSchema>;
