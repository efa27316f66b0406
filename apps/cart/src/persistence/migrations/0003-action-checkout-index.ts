import { sqlMigration } from '@storefront/persistence';

const S = '"cart"';

/**
 * Checkouts waiting on an action step, of a placement or a pay-order, by
 * order: what order_paid and order_failed look for (a handful of rows at any
 * time, so a small index; the place index covers placements only).
 */
export const actionCheckoutIndex = sqlMigration('0003_action_checkout_index', [
  `create index if not exists "checkouts_action_order_idx" on ${S}."checkouts" ("order_id") where "status" = 'action'`,
]);
