import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

// The late-payment refund job looks for cancelled orders still holding a payment: a handful at most.
export const lateRefunds = sqlMigration('0005_late_refunds', [
  `create index if not exists "orders_late_refund_idx" on ${S}."orders" ("id") where "status" = 'cancelled' and "paid_status" = 'paid'`,
]);
