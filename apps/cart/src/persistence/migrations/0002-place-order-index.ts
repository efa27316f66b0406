import { sqlMigration } from '@storefront/persistence';

const S = '"cart"';

/** An order's placement was found by reading every checkout ever made (a sequential scan per order_paid). */
export const placeOrderIndex = sqlMigration('0002_place_order_index', [
  // `if not exists`: an operator may build it concurrently beforehand on a large table (docs/operations.md).
  `create index if not exists "checkouts_place_order_idx" on ${S}."checkouts" ("order_id", "created_at" desc) where "kind" = 'place'`,
]);
