import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ACTIVITY_SOURCES, activityLogged } from '@storefront/domain-events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { OrderEvents } from '@storefront/domain-events/orders';
import { notifications } from '@storefront/proto/notifications';
import type { EventType } from '@storefront/events';
import { anonymousCaller, bindClient, SiteSettingsReader } from '@storefront/grpc-client';
import { customers as customersApi } from '@storefront/proto/customers';
import { payments as paymentsApi } from '@storefront/proto/payments';
import { PaymentInstructions } from './grpc/ports/payment-instructions';
import { defineService } from '@storefront/service-kit';
import { NotificationsConfigSchema } from './config';
import { createNotificationsDomain } from './domain';
import { TemplateStore } from './domain/email/templates';
import { activityLoggedShortcut, onActivityLogged } from './events/activity';
import type { EmailConsumer } from './events/email-consumer';
import { onCustomerCreated, onErasureRequested, onPasswordResetRequested } from './events/customer-emails';
import { onEmailPreferencesChanged } from './events/email-preferences';
import { onOrderCancelled, onOrderPlaced, onOrderRefunded, onOrderStatusChanged } from './events/order-emails';
import { activityLogHandlers } from './grpc/activity-log.handlers';
import { emailLogHandlers } from './grpc/email-log.handlers';
import { createMailer } from './mail/smtp-mailer';
import { migrations } from './persistence/migrations';

/** Built-in templates: apps/notifications/templates beside the sources, or beside the bundled main.js. */
function builtInTemplatesDir(): string {
  const candidates = [new URL('../templates/', import.meta.url), new URL('./templates/', import.meta.url)].map((u) => fileURLToPath(u));
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0]!;
}

/** Emails (SMTP), the email log, and the activity log every service publishes to. */
export const notificationsService = defineService({
  name: 'notifications',
  config: NotificationsConfigSchema,
  entities: [],
  migrations,
  setup(ctx) {
    const { config, logger } = ctx;
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS });
    const templates = new TemplateStore(config.DEFAULT_TEMPLATES_DIR ?? builtInTemplatesDir(), config.TEMPLATES_DIR);
    const customers = config.CUSTOMERS_GRPC_ADDR ? ctx.connect('customers', config.CUSTOMERS_GRPC_ADDR) : undefined;
    const settingsClient = customers && bindClient(customers, customersApi.SettingsServiceService);
    const site = new SiteSettingsReader(
      settingsClient && (async () => (await settingsClient.getSiteSettings({}, anonymousCaller('notifications'))).settings),
      { siteUrl: config.SHOP_SITE_URL, storeName: config.SHOP_STORE_NAME },
    );
    // An admin's new site URL or store name is in the next email (a broadcast: a cache needs no inbox).
    const stopWatchingSite = ctx.transport.subscribe(ctx.transport.subjectFor(CustomerEvents.siteSettingsUpdated.subject), () => site.invalidate());
    const paymentsClient = config.PAYMENTS_GRPC_ADDR ? bindClient(ctx.connect('payments', config.PAYMENTS_GRPC_ADDR), paymentsApi.PaymentServiceService) : undefined;
    const paymentInstructions = new PaymentInstructions(
      paymentsClient && (async (gatewayId) => (await paymentsClient.getPaymentInstructions({ gatewayId }, anonymousCaller('notifications'))).text),
    );
    const domain = createNotificationsDomain({
      db: ctx.db,
      config,
      mailer,
      templates,
      site,
      paymentInstructions: (gatewayId) => paymentInstructions.of(gatewayId),
      logger,
      now: () => new Date(),
    });
    ctx.addGrpcService(notifications.EmailLogServiceService, emailLogHandlers(domain));
    ctx.addGrpcService(notifications.ActivityLogServiceService, activityLogHandlers(domain));

    // Email consumers send with no transaction open and record in one statement (events/email-consumer.ts).
    const consumeEmails = <T>(name: string, event: EventType<T>, { handler, shortcut }: EmailConsumer<T>, startAt?: 'new') =>
      ctx.consume(name, event, handler, { shortcut, startAt });
    consumeEmails('notifications.welcome_email', CustomerEvents.customerCreated, onCustomerCreated(domain));
    consumeEmails('notifications.reset_email', CustomerEvents.passwordResetRequested, onPasswordResetRequested(domain));
    consumeEmails('notifications.erasure_email', CustomerEvents.erasureRequested, onErasureRequested(domain));
    consumeEmails('notifications.order_placed_email', OrderEvents.orderPlaced, onOrderPlaced(domain));
    // Added to running systems (session 10): it starts with new events, or the week of status changes the
    // stream retains would announce again orders order_placed already announced.
    consumeEmails('notifications.order_status_email', OrderEvents.orderStatusChanged, onOrderStatusChanged(domain), 'new');
    consumeEmails('notifications.order_cancelled_email', OrderEvents.orderCancelled, onOrderCancelled(domain));
    consumeEmails('notifications.order_refunded_email', OrderEvents.orderRefunded, onOrderRefunded(domain));
    const preferences = onEmailPreferencesChanged(domain);
    ctx.consume('notifications.email_preferences', CustomerEvents.emailPreferencesChanged, preferences.handler, { shortcut: preferences.shortcut });
    for (const source of ACTIVITY_SOURCES) {
      ctx.consume(`notifications.activity_${source}`, activityLogged(source), onActivityLogged(domain, source), {
        shortcut: activityLoggedShortcut(domain, source),
      });
    }

    ctx.onShutdown(async () => {
      stopWatchingSite();
      await mailer.close();
    });
    // Also at start: catches up after downtime.
    ctx.every(
      'log retention sweep',
      config.LOG_RETENTION_SWEEP_SECONDS,
      async () => (await Promise.all([domain.emails.purge(), domain.activity.purge()])).reduce((a, b) => a + b, 0),
      { atStart: true },
    );
  },
});
