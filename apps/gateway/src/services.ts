import { cart } from '@storefront/proto/cart';
import { catalog } from '@storefront/proto/catalog';
import { customers } from '@storefront/proto/customers';
import { fulfillment } from '@storefront/proto/fulfillment';
import { notifications } from '@storefront/proto/notifications';
import { orders } from '@storefront/proto/orders';
import { payments } from '@storefront/proto/payments';

/**
 * Every backing service the gateway calls: one entry per service (adding a
 * service is one line here). `address` is the variable holding its gRPC
 * address, required in production; in development a service without a
 * `developmentDefault` may be left out and its routes are not registered.
 * `proto` is its generated package: every service in it gets a client
 * (`ctx.clients.<name>.<service>`, see bindServices in libs/grpc-client).
 */
export const SERVICE_BINDINGS = [
  { name: 'customers', address: 'CUSTOMERS_GRPC_ADDR', proto: customers, developmentDefault: '127.0.0.1:50051' },
  { name: 'catalog', address: 'CATALOG_GRPC_ADDR', proto: catalog },
  { name: 'fulfillment', address: 'FULFILLMENT_GRPC_ADDR', proto: fulfillment },
  { name: 'payments', address: 'PAYMENTS_GRPC_ADDR', proto: payments },
  { name: 'orders', address: 'ORDERS_GRPC_ADDR', proto: orders },
  { name: 'cart', address: 'CART_GRPC_ADDR', proto: cart },
  { name: 'notifications', address: 'NOTIFICATIONS_GRPC_ADDR', proto: notifications },
] as const;

export type ServiceBinding = (typeof SERVICE_BINDINGS)[number];
export type AddressVariable = ServiceBinding['address'];
