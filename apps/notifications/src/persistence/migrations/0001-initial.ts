import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"notifications"';

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('notifications'),
  `create table ${S}."email_logs" (
    "id" bigserial primary key,
    "type" varchar(50) not null,
    "to" varchar(320) not null,
    "subject" text not null,
    "body" text not null,
    "html" text not null default '',
    "status" varchar(10) not null,
    "error" text not null default '',
    "resent_from" bigint not null default 0,
    "created_at" timestamptz not null default now(),
    "sent_at" timestamptz null
  )`,
  `create index "email_logs_created_idx" on ${S}."email_logs" ("status", "created_at")`,
  `create table ${S}."activity_logs" (
    "id" bigserial primary key,
    "status" varchar(10) not null,
    "source" varchar(50) not null,
    "message" text not null,
    "context" jsonb not null default '{}',
    "customer_id" bigint not null default 0,
    "order_id" bigint not null default 0,
    "created_at" timestamptz not null default now()
  )`,
  `create index "activity_logs_created_idx" on ${S}."activity_logs" ("created_at")`,
  `create table ${S}."settings" (
    "key" varchar(100) primary key,
    "value" jsonb not null
  )`,
]);
