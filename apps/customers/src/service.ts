import { defineService, parseAddons } from '@storefront/service-kit';
import { FulfillmentEvents } from '@storefront/domain-events/fulfillment';
import { OrderEvents } from '@storefront/domain-events/orders';
import { customers } from '@storefront/proto/customers';
import { CustomersConfigSchema } from './config';
import { createCustomersDomain } from './domain';
import { bootstrapAdmin } from './domain/admin-bootstrap';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';
import { authHandlers } from './grpc/auth.handlers';
import { customerHandlers } from './grpc/customer.handlers';
import { profileHandlers } from './grpc/profile.handlers';
import { settingsHandlers } from './grpc/settings.handlers';
import { publishableKeyHandlers } from './grpc/publishable-key.handlers';
import { onOrderCancelled, onOrderDeleted, onOrderPaid, onOrderRefunded, orderDeletedShortcut, orderPaidShortcut } from './events/order-stats';
import { onDownloadCompleted } from './events/download-completed';
import { checkoutPlacedShortcut, onCheckoutPlaced } from './events/checkout-addresses';

// Development-only fallback; production must configure its own pepper.
const DEV_PEPPER = 'storefront-development-pepper-not-for-production';

/** Accounts, sessions, application passwords, profiles and site options. */
export const customersService = defineService({
  name: 'customers',
  config: CustomersConfigSchema,
  requiredInProduction: ['APP_PASSWORD_PEPPER', 'SHOP_ADMIN_PASSWORD'],
  entities,
  migrations,
  setup(ctx) {
    const { config } = ctx;
    const addons = parseAddons(config.SHOP_ADDONS);
    const domain = createCustomersDomain(
      { db: ctx.db, config, pepper: config.APP_PASSWORD_PEPPER ?? DEV_PEPPER, now: () => new Date() },
      addons,
    );
    ctx.addGrpcService(customers.AuthServiceService, authHandlers(domain));
    ctx.addGrpcService(customers.CustomerServiceService, customerHandlers(domain));
    ctx.addGrpcService(customers.ProfileServiceService, profileHandlers(domain));
    ctx.addGrpcService(customers.SettingsServiceService, settingsHandlers(domain));
    ctx.addGrpcService(customers.PublishableKeyServiceService, publishableKeyHandlers(domain));
    ctx.consume('customers.order_stats_paid', OrderEvents.orderPaid, onOrderPaid(ctx.logger), { shortcut: orderPaidShortcut });
    ctx.consume('customers.order_stats_cancelled', OrderEvents.orderCancelled, onOrderCancelled(ctx.logger));
    ctx.consume('customers.order_stats_refunded', OrderEvents.orderRefunded, onOrderRefunded(ctx.logger));
    ctx.consume('customers.order_stats_deleted', OrderEvents.orderDeleted, onOrderDeleted(ctx.logger), { shortcut: orderDeletedShortcut });
    ctx.consume('customers.download_stats', FulfillmentEvents.downloadCompleted, onDownloadCompleted());
    ctx.consume('customers.checkout_addresses', OrderEvents.orderPlaced, onCheckoutPlaced(domain, ctx.logger), { shortcut: checkoutPlacedShortcut });
    // Forgot-password requests queued before a stop, then every few seconds as a safety net.
    ctx.every('password reset queue', 5, async () => (await domain.passwordReset.processPending(), 0));
    ctx.onReady(async () => {
      await domain.passwordReset.processPending();
      const admin = await bootstrapAdmin(domain.deps);
      if (admin.generatedPassword) {
        // Printed once, on the boot that created the account (contract "Host platform").
        process.stdout.write(
          `\nAdministrator created: ${config.SHOP_ADMIN_USER} / ${admin.generatedPassword}\n` +
            `(generated once; set SHOP_ADMIN_PASSWORD to choose it)\n\n`,
        );
      } else if (admin.created) {
        ctx.logger.info({ login: config.SHOP_ADMIN_USER }, 'administrator created');
      }
    });
  },
});
