import { escapeLike, type Reader } from '@storefront/persistence';
import { parsed, T } from './orders.repository';

// Sales aggregates over the orders tables, one statement per request. Amounts
// are integer minor units as stored (sums cast back to bigint, so the JSON
// carries plain numbers); days are UTC calendar days as YYYY-MM-DD.

/** A window of UTC days, both ends inclusive (YYYY-MM-DD). */
export interface DayRange {
  from: string;
  to: string;
}

export interface SalesTotalsRecord {
  gross: number;
  discounts: number;
  refunds: number;
  shipping: number;
  tax: number;
  items: number;
  orders: number;
  newCustomers: number;
}

export interface SalesDayRecord {
  date: string;
  gross: number;
  discounts: number;
  refunds: number;
  orders: number;
}

export interface StoreSalesRecord {
  current: SalesTotalsRecord;
  previous: SalesTotalsRecord;
  days: SalesDayRecord[];
  currencies: string[];
}

export interface ProductSalesRecord {
  productId: number;
  name: string;
  items: number;
  net: number;
  orders: number;
}

export interface ProductDayRecord {
  date: string;
  items: number;
  net: number;
  orders: number;
}

export interface ProductDetailRecord {
  /** The name of the product's latest order line, any status or date; null: never ordered. */
  name: string | null;
  items: number;
  net: number;
  orders: number;
  days: ProductDayRecord[];
}

/** Midnight UTC starting `day`, plus `days` days. */
const startOf = (day: string, days = 0) => new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000);
const UTC_DAY = `(o.date_created at time zone 'UTC')::date`;

/**
 * A line's net sales (`l`, of order `o`) less its share of what a refund took
 * back of the order's products (the store report's refunded sales, spread
 * over the lines by their net), so products and the store agree on net sales.
 */
const LINE_NET = `(l.subtotal - l.discount) - coalesce(round((l.subtotal - l.discount)::numeric
  * least(o.refunded_total, greatest(o.subtotal - o.discount_total, 0)) / nullif(greatest(o.subtotal - o.discount_total, 0), 0)), 0)`;
const TOTALS_JSON = `json_build_object('gross', coalesce(sum(s.subtotal), 0)::bigint,
  'discounts', coalesce(sum(s.discount_total), 0)::bigint, 'refunds', coalesce(sum(s.refunded_sales), 0)::bigint,
  'shipping', coalesce(sum(s.shipping_total), 0)::bigint, 'tax', coalesce(sum(s.total_tax), 0)::bigint,
  'items', coalesce(sum(s.item_count), 0)::bigint, 'orders', count(*),
  'newCustomers', count(distinct s.customer_id) filter (where s.first_order))`;

/**
 * Totals of the period and of the previous window, the period's days (every
 * day, zeros included) and the currencies of the period's counted orders, in
 * one statement: the counted orders of both windows are read once by
 * date_created (orders_date_id_idx); a customer is new in a window when no
 * counted order of theirs (any currency) is older than the window's start
 * (orders_customer_date_idx).
 */
export async function storeSales(
  reader: Reader,
  q: { period: DayRange; previous: DayRange; currency: string; statuses: readonly string[] },
): Promise<StoreSalesRecord> {
  // The previous window ends the day before the period starts: one range reads both.
  const periodStart = startOf(q.period.from);
  const previousStart = startOf(q.previous.from);
  const rows = await reader.query<{ current: unknown; previous: unknown; days: unknown; currencies: string[] }>(
    `with counted as (
       select o.customer_id, o.currency, o.subtotal, o.discount_total, o.shipping_total,
         -- What a refund took back of the products' net (it also returned shipping and tax).
         least(o.refunded_total, greatest(o.subtotal - o.discount_total, 0)) as refunded_sales,
         o.total_tax, o.item_count, ${UTC_DAY} as day, o.date_created >= ?::timestamptz as in_period
       from ${T.orders} o
       where o.status in (?) and o.date_created >= ?::timestamptz and o.date_created < ?::timestamptz
     ), selected as (
       select c.*, c.customer_id > 0 and not exists (
           select 1 from ${T.orders} p
           where p.customer_id = c.customer_id and p.status in (?)
             and p.date_created < case when c.in_period then ?::timestamptz else ?::timestamptz end
         ) as first_order
       from counted c where c.currency = ?
     )
     select
       (select ${TOTALS_JSON} from selected s where s.in_period) as current,
       (select ${TOTALS_JSON} from selected s where not s.in_period) as previous,
       (select json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'gross', coalesce(x.gross, 0),
           'discounts', coalesce(x.discounts, 0), 'refunds', coalesce(x.refunds, 0), 'orders', coalesce(x.orders, 0))
           order by d.day)
         from (select g::date as day from generate_series(?::date, ?::date, interval '1 day') g) d
         left join (
           select s.day, sum(s.subtotal)::bigint as gross, sum(s.discount_total)::bigint as discounts,
             sum(s.refunded_sales)::bigint as refunds, count(*) as orders
           from selected s where s.in_period group by s.day
         ) x on x.day = d.day) as days,
       (select coalesce(array_agg(distinct c.currency::text order by c.currency::text), '{}')
         from counted c where c.in_period) as currencies`,
    [
      periodStart,
      q.statuses,
      previousStart,
      startOf(q.period.to, 1),
      q.statuses,
      periodStart,
      previousStart,
      q.currency,
      q.period.from,
      q.period.to,
    ],
  );
  const row = rows[0];
  return {
    current: parsed(row.current),
    previous: parsed(row.previous),
    days: parsed(row.days) ?? [],
    currencies: row.currencies,
  };
}

/**
 * One page of the products sold in the period (in `currency`), by net sales
 * then product id, and the number of products matching, in one statement.
 * A product's name is the name on its latest line in the period; `search`
 * matches it, case-insensitive.
 */
export async function productSalesPage(
  reader: Reader,
  q: { period: DayRange; currency: string; statuses: readonly string[]; search: string; limit: number; offset: number },
): Promise<{ products: ProductSalesRecord[]; total: number }> {
  const like = q.search ? `%${escapeLike(q.search.toLowerCase())}%` : '';
  const rows = await reader.query<{ total: string; products: unknown }>(
    `with products as (
       select l.product_id, sum(l.quantity)::bigint as items, sum(${LINE_NET})::bigint as net,
         count(distinct l.order_id) as orders,
         (array_agg(l.name order by o.date_created desc, l.id desc))[1] as name
       from ${T.orders} o join ${T.lines} l on l.order_id = o.id
       where o.status in (?) and o.date_created >= ?::timestamptz and o.date_created < ?::timestamptz
         and o.currency = ? and l.product_id > 0
       group by l.product_id
     ), matched as (
       select * from products where ? = '' or lower(name) like ?
     )
     select (select count(*) from matched) as total,
       (select coalesce(json_agg(json_build_object('productId', p.product_id, 'name', p.name, 'items', p.items,
           'net', p.net, 'orders', p.orders) order by p.net desc, p.product_id), '[]'::json)
         from (select * from matched order by net desc, product_id limit ? offset ?) p) as products`,
    [q.statuses, startOf(q.period.from), startOf(q.period.to, 1), q.currency, like, like, q.limit, q.offset],
  );
  return { products: parsed(rows[0].products), total: Number(rows[0].total) };
}

/**
 * One product's totals and days in the period (in `currency`), and the name
 * on its latest line ever, in one statement (order_line_items_product_idx).
 */
export async function productSales(
  reader: Reader,
  q: { productId: number; period: DayRange; currency: string; statuses: readonly string[] },
): Promise<ProductDetailRecord> {
  const rows = await reader.query<{ name: string | null; totals: unknown; days: unknown }>(
    `with sold as (
       select l.quantity, ${LINE_NET} as net, l.order_id, ${UTC_DAY} as day
       from ${T.lines} l join ${T.orders} o on o.id = l.order_id
       where l.product_id = ? and o.status in (?) and o.date_created >= ?::timestamptz
         and o.date_created < ?::timestamptz and o.currency = ?
     )
     select
       (select l.name from ${T.lines} l where l.product_id = ? order by l.order_id desc, l.id desc limit 1) as name,
       (select json_build_object('items', coalesce(sum(s.quantity), 0)::bigint, 'net', coalesce(sum(s.net), 0)::bigint,
           'orders', count(distinct s.order_id)) from sold s) as totals,
       (select json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'items', coalesce(x.items, 0),
           'net', coalesce(x.net, 0), 'orders', coalesce(x.orders, 0)) order by d.day)
         from (select g::date as day from generate_series(?::date, ?::date, interval '1 day') g) d
         left join (
           select s.day, sum(s.quantity)::bigint as items, sum(s.net)::bigint as net, count(distinct s.order_id) as orders
           from sold s group by s.day
         ) x on x.day = d.day) as days`,
    [
      q.productId,
      q.statuses,
      startOf(q.period.from),
      startOf(q.period.to, 1),
      q.currency,
      q.productId,
      q.period.from,
      q.period.to,
    ],
  );
  const row = rows[0];
  const totals = parsed(row.totals) as { items: number; net: number; orders: number };
  return { name: row.name, ...totals, days: parsed(row.days) ?? [] };
}
