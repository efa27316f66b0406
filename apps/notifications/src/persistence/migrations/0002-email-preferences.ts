import { sqlMigration } from '@storefront/persistence';

const S = '"notifications"';

/** Customers' order-email choice (customers.email_preferences_changed), kept where emails are sent. */
export const emailPreferences = sqlMigration('0002_email_preferences', [
  `create table ${S}."email_preferences" (
    "customer_id" bigint primary key,
    "order_email" boolean not null,
    "changed_at" timestamptz not null
  )`,
]);
