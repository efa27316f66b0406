/**
 * The triggers that keep catalog.product_counts (migration 0006) in step with
 * the products table, declared on the Product entity too so the schema diff
 * knows them (raw DDL: they share one function, created by the migration).
 */
export const PRODUCT_COUNT_TRIGGERS = [
  {
    name: 'products_count_insert_delete',
    timing: 'after' as const,
    events: ['insert' as const, 'delete' as const],
    expression: `create trigger "products_count_insert_delete" after insert or delete on "catalog"."products"
     for each row execute function "catalog"."product_counts_fn"()`,
  },
  {
    name: 'products_count_update',
    timing: 'after' as const,
    events: ['update' as const],
    expression: `create trigger "products_count_update" after update of "status" on "catalog"."products"
     for each row when (old."status" is distinct from new."status") execute function "catalog"."product_counts_fn"()`,
  },
];
