import { sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

// Coupon redemptions of the place-order saga: one row per (checkout key,
// coupon); coupons.usage_count is kept equal to the active rows by the same
// conditional update that checks usage_limit.
export const couponRedemptions = sqlMigration('0004_coupon_redemptions', [
  `create table ${S}."coupon_redemptions" (
    "id" bigserial primary key,
    "redemption_key" varchar(200) not null,
    "coupon_id" int not null,
    "code" varchar(200) not null,
    "order_id" bigint not null default '0',
    "reservation_id" varchar(100) not null default '',
    "customer_id" bigint not null default '0',
    "email" varchar(320) not null default '',
    "status" varchar(20) not null,
    "created_at" timestamptz not null,
    "released_at" timestamptz null,
    constraint "coupon_redemptions_key_coupon_unique" unique ("redemption_key", "coupon_id")
  )`,
  `create index "coupon_redemptions_coupon_status_idx" on ${S}."coupon_redemptions" ("coupon_id", "status")`,
  `create index "coupon_redemptions_order_idx" on ${S}."coupon_redemptions" ("order_id")`,
  `create index "coupon_redemptions_reservation_idx" on ${S}."coupon_redemptions" ("reservation_id")`,
]);
