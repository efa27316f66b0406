import { sqlMigration } from '@storefront/persistence';

const S = '"payments"';

// Refunds become idempotent by the caller's key (orders: a late payment's refund, an admin's): a retry
// after a lost answer, or a job resuming an interrupted refund, finds the refund already made.
export const refundKeys = sqlMigration('0002_refund_keys', [
  `alter table ${S}."refunds" add column "idempotency_key" varchar(255) null`,
  `alter table ${S}."refunds" add constraint "refunds_idempotency_key_key" unique ("idempotency_key")`,
]);
