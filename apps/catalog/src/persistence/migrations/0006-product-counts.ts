import { sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

// Exact product list totals without counting rows (the default list filters by
// status only): a trigger keeps the number of products per status in
// product_counts, in the same transaction as the change, so a reader's
// snapshot sees counts that match the products it sees. Each status is split
// over 8 slots (product id % 8) so concurrent product writes rarely wait on the
// same counter row; rows are changed in key order within a statement.
export const productCounts = sqlMigration('0006_product_counts', [
  `create table ${S}."product_counts" (
    "status" varchar(20) not null,
    "slot" smallint not null,
    "n" bigint not null,
    constraint "product_counts_pkey" primary key ("status", "slot")
  )`,
  `create or replace function ${S}."product_counts_fn"() returns trigger as $$
  begin
    insert into ${S}."product_counts" as c ("status", "slot", "n")
      select d.status, d.slot, sum(d.n) from (
        select new.status, (new.id % 8)::smallint, 1 where tg_op <> 'DELETE'
        union all select old.status, (old.id % 8)::smallint, -1 where tg_op <> 'INSERT'
      ) as d (status, slot, n)
      group by 1, 2 having sum(d.n) <> 0 order by 1, 2
    on conflict ("status", "slot") do update set "n" = c."n" + excluded."n";
    return null;
  end; $$ language plpgsql`,
  // Written out, not imported from product-counts.ts: a released migration never changes (the entity's
  // copy there is checked against this by the schema drift test).
  `create trigger "products_count_insert_delete" after insert or delete on "catalog"."products"
     for each row execute function "catalog"."product_counts_fn"()`,
  `create trigger "products_count_update" after update of "status" on "catalog"."products"
     for each row when (old."status" is distinct from new."status") execute function "catalog"."product_counts_fn"()`,
  `insert into ${S}."product_counts" ("status", "slot", "n")
     select "status", ("id" % 8)::smallint, count(*) from ${S}."products" group by 1, 2`,
]);
