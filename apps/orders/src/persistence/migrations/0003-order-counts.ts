import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

// Exact list totals without counting rows: a trigger keeps the number of
// orders per (customer, status) in order_counts, in the same transaction as
// the change (so a reader's snapshot sees counts that match the orders it
// sees). customer_id -1 holds every customer's orders (guest orders are
// customer 0). Each key is split over 16 slots (order id % 16) so concurrent
// checkouts rarely wait on the same counter row; a total sums at most
// 8 statuses x 16 slots. Rows are changed in key order within a statement.
export const orderCounts = sqlMigration('0003_order_counts', [
  `create table ${S}."order_counts" (
    "customer_id" bigint not null,
    "status" varchar(20) not null,
    "slot" smallint not null,
    "n" bigint not null,
    primary key ("customer_id", "status", "slot")
  )`,
  `create or replace function ${S}."order_counts_fn"() returns trigger as $$
  begin
    insert into ${S}."order_counts" as c ("customer_id", "status", "slot", "n")
      select d.customer_id, d.status, d.slot, sum(d.n) from (
        select new.customer_id, new.status, (new.id % 16)::smallint, 1 where tg_op <> 'DELETE'
        union all select -1, new.status, (new.id % 16)::smallint, 1 where tg_op <> 'DELETE'
        union all select old.customer_id, old.status, (old.id % 16)::smallint, -1 where tg_op <> 'INSERT'
        union all select -1, old.status, (old.id % 16)::smallint, -1 where tg_op <> 'INSERT'
      ) as d (customer_id, status, slot, n)
      group by 1, 2, 3 having sum(d.n) <> 0 order by 1, 2, 3
    on conflict ("customer_id", "status", "slot") do update set "n" = c."n" + excluded."n";
    return null;
  end; $$ language plpgsql`,
  `create trigger "orders_count_insert_delete" after insert or delete on ${S}."orders"
     for each row execute function ${S}."order_counts_fn"()`,
  `create trigger "orders_count_update" after update of "status", "customer_id" on ${S}."orders"
     for each row when (old."status" is distinct from new."status" or old."customer_id" is distinct from new."customer_id")
     execute function ${S}."order_counts_fn"()`,
  `insert into ${S}."order_counts" ("customer_id", "status", "slot", "n")
     select "customer_id", "status", ("id" % 16)::smallint, count(*) from ${S}."orders" group by 1, 2, 3
     union all
     select -1, "status", ("id" % 16)::smallint, count(*) from ${S}."orders" group by 2, 3`,
]);
