import { Type, type Static } from 'typebox';

/** Environment of the payments service (beside the base service variables). */
export const PaymentsConfigSchema = Type.Object({
  /** Comma list of addons (default all); `card` registers the test_card gateway. */
  SHOP_ADDONS: Type.Optional(Type.String()),
  /** orders (RecordPaymentResult, GetOrderForPayment); unset = payments works without order lookups. */
  ORDERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** customers (site settings: the site URL of action-step links and the store name). */
  CUSTOMERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Fallback site URL when the customers service cannot be asked. */
  SHOP_SITE_URL: Type.String({ default: 'http://127.0.0.1:8080' }),
  /** Card-testing defence: declined/failed attempts allowed per client IP and window; 0 turns it off. */
  PAYMENT_FAILURE_LIMIT: Type.Integer({ minimum: 0, default: 20 }),
  PAYMENT_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 600 }),
  /** An unconfirmed payment intent fails by itself after this long. */
  INTENT_EXPIRY_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
  /** How often expired intents are swept; 0 turns the job off. */
  INTENT_SWEEP_SECONDS: Type.Number({ minimum: 0, default: 30 }),
});
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;
