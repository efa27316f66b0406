import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"payments"';

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('payments'),
  `create table ${S}."gateway_settings" (
    "gateway_id" varchar(60) primary key,
    "settings" jsonb not null,
    "updated_at" timestamptz not null
  )`,
  `create table ${S}."payment_attempts" (
    "id" varchar(40) primary key,
    "order_id" bigint not null,
    "gateway_id" varchar(60) not null,
    "amount_minor" bigint not null,
    "currency" varchar(3) not null,
    "outcome" varchar(20) not null,
    "transaction_id" varchar(100) not null default '',
    "decline_reason" varchar(60) not null default '',
    "message" text not null default '',
    "idempotency_key" varchar(300) null,
    "fingerprint" varchar(64) not null default '',
    "customer_id" bigint not null default '0',
    "client_ip" varchar(64) not null default '',
    "intent_id" varchar(60) not null default '',
    "redirect_url" text not null default '',
    "client_secret" varchar(200) not null default '',
    "created_at" timestamptz not null,
    "updated_at" timestamptz not null,
    constraint "payment_attempts_idempotency_key_unique" unique ("idempotency_key")
  )`,
  `create index "payment_attempts_order_idx" on ${S}."payment_attempts" ("order_id")`,
  `create table ${S}."intents" (
    "id" varchar(60) primary key,
    "kind" varchar(10) not null,
    "gateway_id" varchar(60) not null,
    "order_id" bigint not null default '0',
    "attempt_id" varchar(40) not null default '',
    "customer_id" bigint not null default '0',
    "amount_minor" bigint not null default '0',
    "currency" varchar(3) not null default '',
    "status" varchar(30) not null,
    "client_secret" varchar(200) not null,
    "card_brand" varchar(30) not null default '',
    "card_last4" varchar(4) not null default '',
    "exp_month" int not null default 0,
    "exp_year" int not null default 0,
    "card_behaviour" varchar(30) not null default '',
    "return_url" text not null default '',
    "expires_at" timestamptz not null,
    "created_at" timestamptz not null,
    "updated_at" timestamptz not null
  )`,
  `create index "intents_status_expires_idx" on ${S}."intents" ("status", "expires_at")`,
  `create table ${S}."tokens" (
    "id" serial primary key,
    "customer_id" bigint not null,
    "gateway_id" varchar(60) not null,
    "gateway_token" varchar(60) not null,
    "brand" varchar(30) not null,
    "last4" varchar(4) not null,
    "exp_month" int not null,
    "exp_year" int not null,
    "card_behaviour" varchar(30) not null,
    "is_default" boolean not null default false,
    "created_at" timestamptz not null
  )`,
  `create index "tokens_customer_idx" on ${S}."tokens" ("customer_id")`,
  `create table ${S}."idempotency_keys" (
    "caller_id" bigint not null,
    "key" varchar(300) not null,
    "fingerprint" varchar(64) not null,
    "response" jsonb not null,
    "created_at" timestamptz not null,
    constraint "idempotency_keys_pkey" primary key ("caller_id", "key")
  )`,
  `create table ${S}."failure_windows" (
    "client_ip" varchar(64) primary key,
    "window_start" timestamptz not null,
    "failures" int not null
  )`,
  `create table ${S}."refunds" (
    "id" varchar(40) primary key,
    "order_id" bigint not null,
    "gateway_id" varchar(60) not null,
    "transaction_id" varchar(100) not null,
    "amount_minor" bigint not null,
    "currency" varchar(3) not null,
    "reason" text not null default '',
    "created_at" timestamptz not null
  )`,
]);
