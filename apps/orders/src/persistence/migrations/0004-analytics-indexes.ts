import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

/**
 * Product analytics read one product's lines (and its latest name) by
 * product_id; without this index each product detail scanned every line.
 * Store analytics use orders_date_id_idx (date_created) and, for new
 * customers, orders_customer_date_idx.
 */
export const analyticsIndexes = sqlMigration('0004_analytics_indexes', [
  `create index "order_line_items_product_idx" on ${S}."order_line_items" ("product_id", "order_id")`,
]);
