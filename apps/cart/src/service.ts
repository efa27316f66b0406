import { OrderEvents } from '@storefront/domain-events/orders';
import { cart } from '@storefront/proto/cart';
import { ConfigError, defineService } from '@storefront/service-kit';
import { CartConfigSchema } from './config';
import { createCartDomain } from './domain';
import { orderFailedConsumer, orderFailedShortcut, orderPaidConsumer, orderPaidShortcut } from './events/order-paid';
import { onPricingDataChanged } from './events/pricing-data-changed';
import { cartHandlers } from './grpc/cart.handlers';
import { checkoutHandlers } from './grpc/checkout.handlers';
import { catalogPort } from './grpc/ports/catalog-port';
import { ordersPort } from './grpc/ports/orders-port';
import { paymentsPort } from './grpc/ports/payments-port';
import { quotePort } from './grpc/ports/quote-port';
import { regionsPort } from './grpc/ports/regions-port';
import { CachedSettings } from './grpc/ports/settings-port';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';

// Development-only fallback; production must configure its own secret.
const DEV_TOKEN_SECRET = 'storefront-development-cart-token-secret-not-for-production';

/** Carts, coupons applied to them, checkout fields and the place-order saga. */
export const cartService = defineService({
  name: 'cart',
  config: CartConfigSchema,
  entities,
  migrations,
  setup(ctx) {
    const { config, logger } = ctx;
    if (config.NODE_ENV === 'production' && !config.CART_TOKEN_SECRET) {
      throw new ConfigError(['CART_TOKEN_SECRET is required when NODE_ENV=production']);
    }
    const connect = (name: string, address: string | undefined) => (address ? ctx.connect(name, address) : undefined);
    const settings = new CachedSettings(connect('customers', config.CUSTOMERS_GRPC_ADDR), config.SETTINGS_CACHE_TTL_MS);
    const payments = connect('payments', config.PAYMENTS_GRPC_ADDR);
    const orders = connect('orders', config.ORDERS_GRPC_ADDR);
    const domain = createCartDomain({
      db: ctx.db,
      config,
      logger,
      tokenSecret: config.CART_TOKEN_SECRET ?? DEV_TOKEN_SECRET,
      catalog: catalogPort(connect('catalog', config.CATALOG_GRPC_ADDR)),
      quotes: quotePort(connect('fulfillment', config.FULFILLMENT_GRPC_ADDR)),
      regions: regionsPort(connect('fulfillment', config.FULFILLMENT_GRPC_ADDR)),
      settings,
      payments: payments && paymentsPort(payments),
      orders: orders && ordersPort(orders),
      now: () => new Date(),
    });
    ctx.addGrpcService(cart.CartServiceService, cartHandlers(domain));
    ctx.addGrpcService(cart.CheckoutServiceService, checkoutHandlers(domain));

    ctx.consume('cart.empty_paid_checkouts', OrderEvents.orderPaid, orderPaidConsumer(domain, logger), {
      shortcut: orderPaidShortcut(domain),
    });
    ctx.consume('cart.fail_action_checkouts', OrderEvents.orderFailed, orderFailedConsumer(domain, logger), {
      shortcut: orderFailedShortcut(domain),
    });

    const unsubscribe = onPricingDataChanged(ctx.transport, (what) => {
      if (what === 'settings') settings.invalidate();
      domain.pricer.snapshots.invalidate();
    });
    ctx.onShutdown(async () => unsubscribe());
    ctx.every('guest cart sweep', config.CART_SWEEP_SECONDS, () => domain.expiry.sweep());
    // Also at start: sagas a killed process left open are finished or compensated right away.
    ctx.every('checkout recovery', config.CHECKOUT_RECOVERY_SECONDS, () => domain.recovery.recoverOnce(), { atStart: true });
  },
});
