import { sqlMigration } from '@storefront/persistence';

const S = '"fulfillment"';

export const downloads = sqlMigration('0002_downloads', [
  // Read model of paid orders' lines (from orders.order_paid), walked by bundle sync.
  `create table ${S}."paid_order_lines" (
    "order_id" bigint not null,
    "product_id" bigint not null,
    "variation_id" bigint not null,
    "customer_id" bigint not null,
    "paid_at" timestamptz not null,
    primary key ("order_id", "product_id", "variation_id")
  )`,
  `create index "paid_order_lines_product_idx" on ${S}."paid_order_lines" ("product_id", "order_id")`,
  `create table ${S}."download_permissions" (
    "id" bigserial primary key,
    "order_id" bigint not null,
    "customer_id" bigint not null,
    "product_id" bigint not null,
    "product_name" text not null default '',
    "download_id" varchar(100) not null,
    "download_name" text not null default '',
    "file" text not null,
    "downloads_remaining" int not null,
    "download_count" int not null default 0,
    "access_granted" timestamptz not null default now(),
    "access_expires" timestamptz null,
    constraint "download_permissions_grant_unique" unique ("order_id", "product_id", "download_id")
  )`,
  `create index "download_permissions_customer_idx" on ${S}."download_permissions" ("customer_id", "id")`,
  `create table ${S}."download_sessions" (
    "id" uuid primary key,
    "permission_id" bigint not null,
    "file" text not null,
    "created_at" timestamptz not null default now(),
    "completed_at" timestamptz null,
    constraint "download_sessions_permission_id_foreign" foreign key ("permission_id")
      references ${S}."download_permissions" ("id") on delete cascade
  )`,
]);
