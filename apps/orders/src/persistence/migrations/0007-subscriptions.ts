import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

/**
 * Subscriptions (the subscriptions addon): a line bought at a subscription
 * price keeps its billing schedule, and the order's payment starts one
 * subscription per schedule. `start_key` (order id and schedule) makes a
 * redelivered order_paid start nothing twice.
 */
export const subscriptions = sqlMigration('0007_subscriptions', [
  `alter table ${S}."order_line_items" add column if not exists "subscription" jsonb`,
  `create table ${S}."subscriptions" (
    "id" bigserial primary key,
    "start_key" text not null unique,
    "customer_id" bigint not null,
    "status" varchar(20) not null,
    "currency" varchar(3) not null,
    "total" bigint not null,
    "billing_period" varchar(5) not null,
    "billing_interval" int not null,
    "trial_days" int not null default 0,
    "start_date" timestamptz not null,
    "next_payment_date" timestamptz,
    "last_payment_date" timestamptz,
    "end_date" timestamptz,
    "trial_end_date" timestamptz,
    "payment_method" text not null default '',
    "payment_method_title" text not null default '',
    "parent_order_id" bigint not null,
    "related_order_ids" bigint[] not null,
    "suspension_count" int not null default 0,
    "billing" jsonb not null,
    "shipping" jsonb not null,
    "lines" jsonb not null,
    "notes" jsonb not null default '[]',
    "date_created" timestamptz not null,
    "date_modified" timestamptz not null
  )`,
  `create index "subscriptions_customer_idx" on ${S}."subscriptions" ("customer_id", "id" desc)`,
  `create index "subscriptions_start_idx" on ${S}."subscriptions" ("start_date", "id")`,
]);
