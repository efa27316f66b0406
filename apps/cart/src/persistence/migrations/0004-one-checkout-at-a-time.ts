import { sqlMigration } from '@storefront/persistence';

const S = '"cart"';

/**
 * One placement of a cart revision (running, awaiting its action step, or
 * done) and one running payment of an order, whatever keys the requests
 * carry: parallel requests with different Idempotency-Keys (or a pay-order
 * without one) otherwise each created an order or charged the order again.
 */
export const oneCheckoutAtATime = sqlMigration('0004_one_checkout_at_a_time', [
  `create unique index if not exists "checkouts_placement_of_cart" on ${S}."checkouts" ("cart_id", "cart_revision") where "kind" = 'place' and "status" in ('open', 'action', 'succeeded')`,
  `create unique index if not exists "checkouts_open_payment_of_order" on ${S}."checkouts" ("order_id") where "kind" = 'pay' and "status" = 'open'`,
]);
