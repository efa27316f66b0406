import { Type, type Static } from 'typebox';

/** Environment of the catalog service (beside the base service variables). */
export const CatalogConfigSchema = Type.Object({
  /** Active addons; `bogo` coupons need the bogo addon. */
  SHOP_ADDONS: Type.String({ default: 'subscriptions,embed,card,bogo' }),
  /** Low-stock threshold of products that set none of their own. */
  LOW_STOCK_THRESHOLD: Type.Integer({ minimum: 0, default: 2 }),
  /** Lifetime of a stock reservation when the caller asks for none. */
  RESERVATION_TTL_SECONDS: Type.Integer({ minimum: 10, default: 900 }),
  /** Longest lifetime a caller may ask for. */
  RESERVATION_MAX_TTL_SECONDS: Type.Integer({ minimum: 10, default: 24 * 3600 }),
  /** How often expired reservations are given back; 0 turns the sweep off. */
  RESERVATION_SWEEP_SECONDS: Type.Integer({ minimum: 0, default: 30 }),
  /**
   * host:port of the customers service: coupon customer references are checked
   * there, and the store currency (prices written without one) is its setting.
   */
  CUSTOMERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** How long the store settings (currency) are kept; customers.site_settings_updated drops them at once. */
  STORE_SETTINGS_TTL_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  /** Seed a small demo catalog on startup when the products table is empty. */
  SEED_DEMO_DATA: Type.Boolean({ default: false }),
});
export type CatalogConfig = Static<typeof CatalogConfigSchema>;
