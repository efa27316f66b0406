import { activityLogged } from '@storefront/domain-events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { payments } from '@storefront/proto/payments';
import { defineService, parseAddons } from '@storefront/service-kit';
import { PaymentsConfigSchema } from './config';
import { createPaymentsDomain } from './domain';
import { registeredGateways } from './domain/gateways/registered';
import { gatewayHandlers } from './grpc/gateway.handlers';
import { ordersPort } from './grpc/orders-port';
import { paymentHandlers } from './grpc/payment.handlers';
import { sitePort } from './grpc/site-port';
import { testCardHandlers } from './grpc/test-card.handlers';
import { tokenHandlers } from './grpc/tokens.handlers';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';

/** Payment gateways and their settings, payment attempts, intents and saved payment tokens. */
export const paymentsService = defineService({
  name: 'payments',
  config: PaymentsConfigSchema,
  entities,
  migrations,
  setup(ctx) {
    const { config, logger } = ctx;
    const addons = parseAddons(config.SHOP_ADDONS);
    const customers = config.CUSTOMERS_GRPC_ADDR ? ctx.connect('customers', config.CUSTOMERS_GRPC_ADDR) : undefined;
    const orders = config.ORDERS_GRPC_ADDR ? ctx.connect('orders', config.ORDERS_GRPC_ADDR) : undefined;
    const site = sitePort(customers, config.SHOP_SITE_URL);
    const domain = createPaymentsDomain({
      db: ctx.db,
      config,
      addons,
      gateways: registeredGateways(addons),
      orders: orders && ordersPort(orders),
      site,
      logger,
      now: () => new Date(),
    });
    const processed = ctx.metrics.counter(
      'payments_processed_total',
      'Payment attempts processed, by gateway and outcome (paid, on_hold, requires_action, declined, failed)',
      ['gateway', 'outcome'],
    );
    // A settings update records payments.activity_logged: every replica drops its cached gateway settings
    // (a broadcast, not a durable consumer: a cache needs no inbox).
    const stopWatching = ctx.transport.subscribe(ctx.transport.subjectFor(activityLogged('payments').subject), () =>
      domain.settings.invalidate(),
    );
    // An admin's new site URL or store name reaches the next link at once (a broadcast, like the above).
    const stopWatchingSite = ctx.transport.subscribe(ctx.transport.subjectFor(CustomerEvents.siteSettingsUpdated.subject), () => site.invalidate());
    ctx.onShutdown(async () => {
      stopWatching();
      stopWatchingSite();
    });
    ctx.addGrpcService(payments.PaymentServiceService, paymentHandlers(domain, processed));
    ctx.addGrpcService(payments.PaymentGatewayServiceService, gatewayHandlers(domain));
    ctx.addGrpcService(payments.PaymentMethodServiceService, tokenHandlers(domain));
    ctx.addGrpcService(payments.TestCardServiceService, testCardHandlers(domain));

    // Fails intents left unconfirmed past their expiry (and the order at orders). Replicas may all run it (SKIP LOCKED).
    ctx.every('intent expiry sweep', config.INTENT_SWEEP_SECONDS, () => domain.actionStep.sweepExpired());
  },
});
