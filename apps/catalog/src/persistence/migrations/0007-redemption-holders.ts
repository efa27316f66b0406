import { sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

// A per-user coupon limit is now checked on every cart pricing (not only at place): a holder's active
// uses are counted through these instead of scanning every active use of a popular coupon.
export const redemptionHolders = sqlMigration('0007_redemption_holders', [
  `create index if not exists "coupon_redemptions_customer_idx" on ${S}."coupon_redemptions" ("coupon_id", "customer_id") where "status" = 'active' and "customer_id" > 0`,
  `create index if not exists "coupon_redemptions_email_idx" on ${S}."coupon_redemptions" ("coupon_id", "email") where "status" = 'active' and "email" <> ''`,
]);
