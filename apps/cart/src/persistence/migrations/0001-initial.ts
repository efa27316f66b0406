import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"cart"';

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('cart'),
  `create table ${S}."carts" (
    "id" varchar(36) primary key,
    "token_hash" varchar(64) null,
    "customer_id" int null,
    "fields" jsonb not null,
    "coupons" jsonb not null,
    "revision" int not null default 0,
    "draft_order_id" int not null default 0,
    "created_at" timestamptz not null,
    "updated_at" timestamptz not null,
    constraint "carts_token_hash_key" unique ("token_hash"),
    constraint "carts_customer_id_key" unique ("customer_id")
  )`,
  `create index "carts_guest_updated_idx" on ${S}."carts" ("updated_at")`,
  `create table ${S}."cart_lines" (
    "cart_id" varchar(36) not null,
    "item_key" varchar(32) not null,
    "product_id" int not null,
    "price_id" int not null,
    "variation_id" int not null,
    "quantity" int not null,
    "position" int not null,
    primary key ("cart_id", "item_key")
  )`,
  `create table ${S}."checkouts" (
    "id" varchar(36) primary key,
    "checkout_key" varchar(64) not null,
    "kind" varchar(10) not null,
    "cart_id" varchar(36) null,
    "cart_revision" int not null default 0,
    "customer_id" int not null default 0,
    "request_hash" varchar(64) not null,
    "status" varchar(12) not null,
    "step" varchar(24) not null,
    "payment_method" varchar(64) not null,
    "order_id" int not null default 0,
    "order_key" varchar(64) not null default '',
    "plan" jsonb not null,
    "outcome" jsonb null,
    "locked_until" timestamptz null,
    "created_at" timestamptz not null,
    "updated_at" timestamptz not null,
    constraint "checkouts_checkout_key_key" unique ("checkout_key")
  )`,
  `create index "checkouts_status_updated_idx" on ${S}."checkouts" ("status", "updated_at")`,
  `create table ${S}."checkout_steps" (
    "checkout_id" varchar(36) not null,
    "seq" int not null,
    "step" varchar(24) not null,
    "note" text not null default '',
    "at" timestamptz not null,
    primary key ("checkout_id", "seq")
  )`,
]);
