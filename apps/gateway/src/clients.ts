import { bindClient, openChannel, type Channel, type PromiseClient } from '@storefront/grpc-client';
import { cart, catalog, customers, fulfillment, health, orders, payments } from '@storefront/proto';
import type { GatewayConfig } from './config';

export interface CustomersClients {
  auth: PromiseClient<typeof customers.AuthServiceService>;
  customer: PromiseClient<typeof customers.CustomerServiceService>;
  profile: PromiseClient<typeof customers.ProfileServiceService>;
  settings: PromiseClient<typeof customers.SettingsServiceService>;
}

export interface CatalogClients {
  products: PromiseClient<typeof catalog.ProductServiceService>;
  terms: PromiseClient<typeof catalog.TermServiceService>;
  coupons: PromiseClient<typeof catalog.CouponServiceService>;
  stock: PromiseClient<typeof catalog.StockServiceService>;
  lookup: PromiseClient<typeof catalog.CatalogLookupServiceService>;
  inventory: PromiseClient<typeof catalog.InventoryServiceService>;
}

export interface FulfillmentClients {
  taxes: PromiseClient<typeof fulfillment.TaxServiceService>;
  shipping: PromiseClient<typeof fulfillment.ShippingServiceService>;
  quotes: PromiseClient<typeof fulfillment.QuoteServiceService>;
  regions: PromiseClient<typeof fulfillment.RegionServiceService>;
}

export interface PaymentsClients {
  payments: PromiseClient<typeof payments.PaymentServiceService>;
  gateways: PromiseClient<typeof payments.PaymentGatewayServiceService>;
  methods: PromiseClient<typeof payments.PaymentMethodServiceService>;
  testCard: PromiseClient<typeof payments.TestCardServiceService>;
}

export interface OrdersClients {
  admin: PromiseClient<typeof orders.OrderAdminServiceService>;
  mine: PromiseClient<typeof orders.CustomerOrderServiceService>;
  checkout: PromiseClient<typeof orders.OrderCheckoutServiceService>;
}

export interface CartClients {
  carts: PromiseClient<typeof cart.CartServiceService>;
  checkout: PromiseClient<typeof cart.CheckoutServiceService>;
}

/** One channel per backing service; every route reaches its service through these clients. */
export interface ServiceClients {
  customers: CustomersClients;
  /** Absent when CATALOG_GRPC_ADDR is not configured (its routes are then not registered). */
  catalog?: CatalogClients;
  /** Absent when FULFILLMENT_GRPC_ADDR is not configured (its routes are then not registered). */
  fulfillment?: FulfillmentClients;
  /** Absent when PAYMENTS_GRPC_ADDR is not configured (its routes are then not registered). */
  payments?: PaymentsClients;
  /** Absent when ORDERS_GRPC_ADDR is not configured (its routes are then not registered). */
  orders?: OrdersClients;
  /** Absent when CART_GRPC_ADDR is not configured (its routes are then not registered). */
  cart?: CartClients;
  /** grpc.health.v1 of every backing service, by service name (for /readyz). */
  health: Record<string, PromiseClient<typeof health.HealthService>>;
  close(): void;
}

export function connectServices(config: GatewayConfig): ServiceClients {
  const channels: Record<string, Channel> = {
    customers: openChannel('customers', config.CUSTOMERS_GRPC_ADDR, config.GRPC_DEADLINE_MS),
  };
  if (config.CATALOG_GRPC_ADDR) channels.catalog = openChannel('catalog', config.CATALOG_GRPC_ADDR, config.GRPC_DEADLINE_MS);
  if (config.FULFILLMENT_GRPC_ADDR) {
    channels.fulfillment = openChannel('fulfillment', config.FULFILLMENT_GRPC_ADDR, config.GRPC_DEADLINE_MS);
  }
  if (config.PAYMENTS_GRPC_ADDR) channels.payments = openChannel('payments', config.PAYMENTS_GRPC_ADDR, config.GRPC_DEADLINE_MS);
  if (config.ORDERS_GRPC_ADDR) channels.orders = openChannel('orders', config.ORDERS_GRPC_ADDR, config.GRPC_DEADLINE_MS);
  if (config.CART_GRPC_ADDR) channels.cart = openChannel('cart', config.CART_GRPC_ADDR, config.GRPC_DEADLINE_MS);
  const c = channels.customers;
  const k = channels.catalog;
  const f = channels.fulfillment;
  const p = channels.payments;
  return {
    customers: {
      auth: bindClient(c, customers.AuthServiceService),
      customer: bindClient(c, customers.CustomerServiceService),
      profile: bindClient(c, customers.ProfileServiceService),
      settings: bindClient(c, customers.SettingsServiceService),
    },
    catalog: k && {
      products: bindClient(k, catalog.ProductServiceService),
      terms: bindClient(k, catalog.TermServiceService),
      coupons: bindClient(k, catalog.CouponServiceService),
      stock: bindClient(k, catalog.StockServiceService),
      lookup: bindClient(k, catalog.CatalogLookupServiceService),
      inventory: bindClient(k, catalog.InventoryServiceService),
    },
    fulfillment: f && {
      taxes: bindClient(f, fulfillment.TaxServiceService),
      shipping: bindClient(f, fulfillment.ShippingServiceService),
      quotes: bindClient(f, fulfillment.QuoteServiceService),
      regions: bindClient(f, fulfillment.RegionServiceService),
    },
    payments: p && {
      payments: bindClient(p, payments.PaymentServiceService),
      gateways: bindClient(p, payments.PaymentGatewayServiceService),
      methods: bindClient(p, payments.PaymentMethodServiceService),
      testCard: bindClient(p, payments.TestCardServiceService),
    },
    orders: channels.orders && {
      admin: bindClient(channels.orders, orders.OrderAdminServiceService),
      mine: bindClient(channels.orders, orders.CustomerOrderServiceService),
      checkout: bindClient(channels.orders, orders.OrderCheckoutServiceService),
    },
    cart: channels.cart && {
      carts: bindClient(channels.cart, cart.CartServiceService),
      checkout: bindClient(channels.cart, cart.CheckoutServiceService),
    },
    health: Object.fromEntries(Object.entries(channels).map(([name, ch]) => [name, bindClient(ch, health.HealthService)])),
    close: () => Object.values(channels).forEach((ch) => ch.close()),
  };
}
