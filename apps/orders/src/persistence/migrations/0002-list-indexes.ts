import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

/** The lists sort by date_created then id: the customer's list and the admin list read in index order. */
export const listIndexes = sqlMigration('0002_list_indexes', [
  `create index "orders_customer_date_idx" on ${S}."orders" ("customer_id", "date_created", "id")`,
  `create index "orders_date_id_idx" on ${S}."orders" ("date_created", "id")`,
  `drop index if exists ${S}."orders_created_idx"`,
]);
