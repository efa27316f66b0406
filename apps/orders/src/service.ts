import { defineService } from '@storefront/service-kit';
import { storeSettings } from '@storefront/service-kit/store-settings';
import { orders } from '@storefront/proto/orders';
import { OrdersConfigSchema } from './config';
import { createOrdersDomain } from './domain';
import { parseCancellable } from './domain/status/order-states';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';
import { adminHandlers, customerHandlers } from './grpc/admin.handlers';
import { analyticsHandlers } from './grpc/analytics.handlers';
import { checkoutHandlers } from './grpc/checkout.handlers';
import { subscriptionHandlers } from './grpc/subscription.handlers';
import { startSubscriptionsOnPaid } from './events/order-paid';
import { OrderEvents } from '@storefront/domain-events/orders';
import { catalogPort, customersPort, paymentsPort, quotePort } from './grpc/ports';

/** Orders: the order record, its state machine and status history, admin and customer views. */
export const ordersService = defineService({
  name: 'orders',
  config: OrdersConfigSchema,
  entities,
  migrations,
  setup(ctx) {
    const { config } = ctx;
    const connect = (name: string, address: string | undefined) => (address ? ctx.connect(name, address) : undefined);
    const customersChannel = connect('customers', config.CUSTOMERS_GRPC_ADDR);
    const domain = createOrdersDomain({
      db: ctx.db,
      config,
      cancellable: parseCancellable(config.ORDER_CANCELLABLE_STATUSES),
      catalog: catalogPort(connect('catalog', config.CATALOG_GRPC_ADDR)),
      quotes: quotePort(connect('fulfillment', config.FULFILLMENT_GRPC_ADDR)),
      payments: paymentsPort(connect('payments', config.PAYMENTS_GRPC_ADDR)),
      store: storeSettings(ctx, customersChannel, config.STORE_SETTINGS_TTL_SECONDS * 1000),
      customers: customersPort(customersChannel),
      now: () => new Date(),
    });
    ctx.addGrpcService(orders.OrderCheckoutServiceService, checkoutHandlers(domain));
    ctx.addGrpcService(orders.OrderAdminServiceService, adminHandlers(domain));
    ctx.addGrpcService(orders.CustomerOrderServiceService, customerHandlers(domain));
    ctx.addGrpcService(orders.AnalyticsServiceService, analyticsHandlers(domain));
    ctx.addGrpcService(orders.SubscriptionServiceService, subscriptionHandlers(domain));
    const startSubscriptions = startSubscriptionsOnPaid(domain.subscriptions, ctx.logger);
    ctx.consume('orders.start_subscriptions', OrderEvents.orderPaid, startSubscriptions.handler, { shortcut: startSubscriptions.shortcut });
    ctx.every('late payment refund retry', config.LATE_REFUND_RETRY_SECONDS, () => domain.latePayments.resumeStuck(config.LATE_REFUND_STALE_SECONDS * 1000), {
      atStart: true,
    });
  },
});
