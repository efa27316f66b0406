import { Type, type Static } from 'typebox';

/** Environment of the orders service (beside the base service variables). */
export const OrdersConfigSchema = Type.Object({
  /** Currency of orders created without one. */
  SHOP_CURRENCY: Type.String({ pattern: '^[A-Z]{3}$', default: 'USD' }),
  /** Statuses a customer may cancel from (spec 3: default pending_payment, on_hold; extensible). */
  ORDER_CANCELLABLE_STATUSES: Type.String({ default: 'pending_payment,on_hold' }),
  /** host:port of the catalog (pricing admin-created line items). */
  CATALOG_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** host:port of fulfillment (the shipping/tax quote engine). */
  FULFILLMENT_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** host:port of payments (refunds); without it refunds answer 422 shop_order_refund_unsupported. */
  PAYMENTS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
});
export type OrdersConfig = Static<typeof OrdersConfigSchema>;
