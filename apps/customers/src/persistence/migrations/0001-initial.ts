import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"customers"';

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('customers'),
  `create table ${S}."users" (
    "id" serial primary key,
    "login" varchar(60) not null,
    "email" varchar(100) not null,
    "password_hash" varchar(255) not null,
    "first_name" varchar(100) not null default '',
    "last_name" varchar(100) not null default '',
    "display_name" varchar(250) not null default '',
    "roles" jsonb not null,
    "registered_at" timestamptz not null,
    "modified_at" timestamptz not null,
    "billing" jsonb not null,
    "shipping" jsonb not null,
    "meta" jsonb not null,
    "subscribe_to_email" boolean not null default false,
    "order_email" boolean not null default true,
    "marketing_email" boolean not null default false,
    "data_sharing_consent" boolean not null default false,
    "profiling_consent" boolean not null default false,
    "total_orders" int not null default 0,
    "total_spent" numeric(14,2) not null default '0.00',
    "total_downloads" int not null default 0,
    constraint "users_login_unique" unique ("login")
  )`,
  // Emails and logins are unique regardless of case.
  `create unique index "users_email_lower_unique" on ${S}."users" (lower("email"))`,
  `create unique index "users_login_lower_unique" on ${S}."users" (lower("login"))`,
  `create table ${S}."sessions" (
    "id" varchar(64) primary key,
    "user_id" int not null,
    "created_at" timestamptz not null,
    "expires_at" timestamptz not null,
    "remember" boolean not null default false,
    "ended_at" timestamptz null
  )`,
  `create index "sessions_user_idx" on ${S}."sessions" ("user_id")`,
  `create table ${S}."application_passwords" (
    "uuid" uuid primary key,
    "user_id" int not null,
    "name" varchar(255) not null,
    "secret_hash" varchar(64) not null,
    "created_at" timestamptz not null,
    "last_used_at" timestamptz null
  )`,
  `create index "application_passwords_user_idx" on ${S}."application_passwords" ("user_id")`,
  `create table ${S}."password_reset_keys" (
    "user_id" int primary key,
    "key_hash" varchar(64) not null,
    "expires_at" timestamptz not null,
    "used_at" timestamptz null
  )`,
  `create table ${S}."login_failures" (
    "id" bigserial primary key,
    "scope" varchar(255) not null,
    "failed_at" timestamptz not null
  )`,
  `create index "login_failures_scope_idx" on ${S}."login_failures" ("scope", "failed_at")`,
  `create table ${S}."erasure_requests" (
    "id" uuid primary key,
    "user_id" int not null,
    "status" varchar(20) not null,
    "created_at" timestamptz not null
  )`,
  `create table ${S}."site_options" (
    "name" varchar(100) primary key,
    "value" jsonb not null
  )`,
]);
