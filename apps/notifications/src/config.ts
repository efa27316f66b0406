import { Type, type Static } from 'typebox';

/** Environment of the notifications service (beside the base service variables). */
export const NotificationsConfigSchema = Type.Object({
  /** smtp://user:pass@host:port (smtps:// for TLS). Unset: mail is captured in the email log only. */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Storefront <no-reply@example.test>' }),
  /** The store's admin address (new-order emails). */
  SHOP_ADMIN_EMAIL: Type.String({ minLength: 3, default: 'admin@example.test' }),
  /** Where the store's site URL and name come from (`PATCH /platform/v1/settings`). */
  CUSTOMERS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Where gateways' payment instructions come from (order emails); unset: emails carry none. */
  PAYMENTS_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** Used only while customers cannot be asked (or is not configured). */
  SHOP_SITE_URL: Type.String({ default: 'http://127.0.0.1:8080' }),
  SHOP_STORE_NAME: Type.String({ default: 'Storefront' }),
  /** A folder whose `<type>.subject|html|txt` files replace the built-in templates. */
  TEMPLATES_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** Where the built-in templates live (default: apps/notifications/templates). */
  DEFAULT_TEMPLATES_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** How often the retention job purges old email and activity logs; 0 turns it off. */
  LOG_RETENTION_SWEEP_SECONDS: Type.Integer({ minimum: 0, default: 3600 }),
  SMTP_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
});
export type NotificationsConfig = Static<typeof NotificationsConfigSchema>;
