import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

const products = [
  `create table ${S}."products" (
    "id" serial primary key,
    "slug" varchar(200) not null,
    "status" varchar(20) not null,
    "title" text not null default '',
    "content" text not null default '',
    "excerpt" text not null default '',
    "author_id" int not null default 0,
    "menu_order" int not null default 0,
    "created_at" timestamptz not null,
    "modified_at" timestamptz not null,
    "meta" jsonb not null,
    "product_type" varchar(20) not null default 'simple',
    "sku" varchar(64) not null default '',
    "barcode" varchar(32) not null default '',
    "manage_stock" boolean not null default false,
    "stock_status" varchar(20) not null default 'instock',
    "backorders_allowed" boolean not null default false,
    "hide_stock" boolean not null default false,
    "low_stock_threshold" int null,
    "shipping_required" boolean not null default true,
    "downloadable" boolean not null default false,
    "downloads" jsonb not null,
    "bundle_product_ids" jsonb not null,
    "images" jsonb not null,
    constraint "products_slug_unique" unique ("slug")
  )`,
  `create index "products_status_created_idx" on ${S}."products" ("status", "created_at")`,
  `create table ${S}."prices" (
    "id" serial primary key,
    "product_id" int not null,
    "position" int not null default 0,
    "name" varchar(200) not null default '',
    "amount" numeric(14,2) not null,
    "compare_at_amount" numeric(14,2) null,
    "currency" varchar(3) not null,
    "type" varchar(20) not null default 'onetime',
    "billing_period" varchar(10) not null default '',
    "billing_interval" int not null default 0,
    "trial_days" int not null default 0
  )`,
  `create index "prices_product_idx" on ${S}."prices" ("product_id", "position")`,
  `create table ${S}."variations" (
    "id" serial primary key,
    "product_id" int not null,
    "position" int not null default 0,
    "attributes" json not null,
    "sku" varchar(64) not null default '',
    "barcode" varchar(32) not null default '',
    "price_id" int not null default 0,
    "amount" numeric(14,2) null,
    "image" varchar(2048) not null default ''
  )`,
  `create index "variations_product_idx" on ${S}."variations" ("product_id", "position")`,
];

const terms = [
  `create table ${S}."terms" (
    "id" serial primary key,
    "taxonomy" varchar(40) not null,
    "name" varchar(200) not null,
    "slug" varchar(200) not null,
    "description" text not null default '',
    "parent" int not null default 0,
    "meta" jsonb not null,
    constraint "terms_taxonomy_slug_unique" unique ("taxonomy", "slug")
  )`,
  `create index "terms_taxonomy_parent_idx" on ${S}."terms" ("taxonomy", "parent")`,
  `create table ${S}."product_terms" (
    "product_id" int not null,
    "term_id" int not null,
    primary key ("product_id", "term_id")
  )`,
  `create index "product_terms_term_idx" on ${S}."product_terms" ("term_id")`,
];

const coupons = [
  `create table ${S}."coupons" (
    "id" serial primary key,
    "slug" varchar(200) not null,
    "status" varchar(20) not null,
    "title" varchar(200) not null,
    "content" text not null default '',
    "excerpt" text not null default '',
    "author_id" int not null default 0,
    "created_at" timestamptz not null,
    "modified_at" timestamptz not null,
    "discount_type" varchar(20) not null default 'fixed_cart',
    "amount" numeric(14,2) not null default '0.00',
    "usage_limit" int null,
    "usage_limit_per_user" int null,
    "usage_count" int not null default 0,
    "allowed_product_ids" jsonb not null,
    "allowed_price_ids" jsonb not null,
    "allowed_customer_ids" jsonb not null,
    "excluded_product_ids" jsonb not null,
    "minimum_amount" numeric(14,2) null,
    "maximum_amount" numeric(14,2) null,
    "expiry_date" date null,
    "individual_use" boolean not null default false,
    "free_shipping" boolean not null default false,
    "bogo_buy_quantity" int not null default 0,
    "bogo_get_quantity" int not null default 0,
    "meta" jsonb not null
  )`,
  `create index "coupons_status_created_idx" on ${S}."coupons" ("status", "created_at")`,
  // Codes are unique regardless of case among coupons that are not in the trash.
  `create unique index "coupons_code_lower_unique" on ${S}."coupons" (lower("title")) where "status" <> 'trash'`,
];

const stock = [
  `create table ${S}."stock_levels" (
    "product_id" int not null,
    "variation_id" int not null,
    "quantity" int not null default 0,
    "updated_at" timestamptz not null,
    primary key ("product_id", "variation_id")
  )`,
  `create table ${S}."stock_movements" (
    "id" bigserial primary key,
    "product_id" int not null,
    "variation_id" int not null,
    "user_id" int not null default 0,
    "created_at" timestamptz not null,
    "quantity_before" int not null,
    "quantity_after" int not null,
    "delta" int not null,
    "reason" varchar(40) not null,
    "note" text not null default '',
    "reservation_id" varchar(100) null
  )`,
  `create index "stock_movements_level_idx" on ${S}."stock_movements" ("product_id", "variation_id", "id")`,
  `create table ${S}."reservations" (
    "id" varchar(100) primary key,
    "status" varchar(20) not null,
    "created_at" timestamptz not null,
    "expires_at" timestamptz not null,
    "settled_at" timestamptz null
  )`,
  `create index "reservations_status_expires_idx" on ${S}."reservations" ("status", "expires_at")`,
  `create table ${S}."reservation_lines" (
    "reservation_id" varchar(100) not null,
    "product_id" int not null,
    "variation_id" int not null,
    "quantity" int not null,
    "deducted" boolean not null default false,
    primary key ("reservation_id", "product_id", "variation_id")
  )`,
];

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('catalog'),
  ...products,
  ...terms,
  ...coupons,
  ...stock,
]);
