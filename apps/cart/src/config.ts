import { Type, type Static } from 'typebox';

/** Environment of the cart service (beside the base service variables). */
export const CartConfigSchema = Type.Object({
  CATALOG_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  FULFILLMENT_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  CUSTOMERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Unset: checkout lists no gateways and cannot place orders (503). */
  PAYMENTS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  ORDERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Keys the hashes under which guest cart tokens are stored; required in production. */
  CART_TOKEN_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** Guest carts untouched this long are deleted. */
  CART_GUEST_TTL_HOURS: Type.Integer({ minimum: 1, default: 48 }),
  /** How often abandoned guest carts are swept; 0 turns the job off. */
  CART_SWEEP_SECONDS: Type.Integer({ minimum: 0, default: 600 }),
  /** Stock reservation lifetime of a checkout (covers an action step such as 3-D Secure). */
  CHECKOUT_RESERVATION_TTL_SECONDS: Type.Integer({ minimum: 10, default: 1800 }),
  /** An open saga untouched this long is finished or compensated by the recovery job. */
  CHECKOUT_RECOVERY_AFTER_SECONDS: Type.Integer({ minimum: 1, default: 60 }),
  /** How often the recovery job looks for open sagas; 0 turns it off (it still runs once at start). */
  CHECKOUT_RECOVERY_SECONDS: Type.Integer({ minimum: 0, default: 30 }),
  /**
   * Whether placing an order requires the `terms` consent checkbox. Off by
   * default, as in stores without a terms page: neither the spec nor the
   * contract makes a consent mandatory, so API clients need not know the key.
   */
  CHECKOUT_TERMS_REQUIRED: Type.Boolean({ default: false }),
  /** Store settings (currency, pages) are cached this long; the update event evicts them sooner. */
  SETTINGS_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /**
   * Priced snapshots of cart reads are reused this long at most while the cart
   * is unchanged; change events of catalog, fulfillment and the store settings
   * drop them sooner. 0 turns the cache off. Place always reprices.
   */
  CART_SNAPSHOT_TTL_MS: Type.Integer({ minimum: 0, default: 60_000 }),
});
export type CartConfig = Static<typeof CartConfigSchema>;
