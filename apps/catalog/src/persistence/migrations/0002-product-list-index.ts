import { sqlMigration } from '@storefront/persistence';

// The default product list (status filter, newest first, id as tie-breaker)
// reads the first page straight off this index instead of sorting every row.
export const productListIndex = sqlMigration('0002_product_list_index', [
  `drop index if exists "catalog"."products_status_created_idx"`,
  `create index "products_status_created_id_idx" on "catalog"."products" ("status", "created_at" desc, "id" desc)`,
]);
