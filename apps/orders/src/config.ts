import { Type, type Static } from 'typebox';

/** Environment of the orders service (beside the base service variables). */
export const OrdersConfigSchema = Type.Object({
  /** Statuses a customer may cancel from (spec 3: default pending_payment, on_hold; extensible). */
  ORDER_CANCELLABLE_STATUSES: Type.String({ default: 'pending_payment,on_hold' }),
  /** host:port of the catalog (pricing admin-created line items). */
  CATALOG_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** host:port of fulfillment (the shipping/tax quote engine). */
  FULFILLMENT_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** host:port of customers: the store currency of orders created without one (its site setting, the one source). */
  CUSTOMERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** How long the store currency is kept; customers.site_settings_updated drops it at once. */
  STORE_SETTINGS_TTL_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  /** How long an admin's pending (unpaid) order holds its units in catalog (catalog's RESERVATION_MAX_TTL_SECONDS at most). */
  ADMIN_ORDER_RESERVATION_TTL_SECONDS: Type.Integer({ minimum: 10, default: 86_400 }),
  /** host:port of payments (refunds); without it refunds answer 422 shop_order_refund_unsupported. */
  PAYMENTS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** How often the late-payment refund job runs (at start too); 0 = never. */
  LATE_REFUND_RETRY_SECONDS: Type.Integer({ minimum: 0, default: 60 }),
  /**
   * A late-payment refund left `due` or `refunding` this long was dropped by a stopped process (a
   * live one answers within the gRPC deadline): the job takes it over. Retryable failures wait as
   * long, doubling with each failure.
   */
  LATE_REFUND_STALE_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
});
export type OrdersConfig = Static<typeof OrdersConfigSchema>;
