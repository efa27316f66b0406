import { sqlMigration } from '@storefront/persistence';

const S = '"fulfillment"';

// Orders that stopped counting as paid (cancelled after payment, fully refunded, deleted: final):
// an order_paid handled after that (a lagging consumer) grants them nothing.
export const revokedOrders = sqlMigration('0003_revoked_orders', [
  `create table if not exists ${S}."revoked_orders" ("order_id" bigint not null primary key, "revoked_at" timestamptz not null)`,
]);
