import type { EntityManager } from '@mikro-orm/postgresql';
import { outboxInsert, outboxParams, type OutboxRow } from '@storefront/events';
import { escapeLike, type Reader } from '@storefront/persistence';
import type { OrderDocuments } from './order-documents';
import { SequenceIds } from './sequence-ids';
import type {
  Address,
  MetaEntry,
  NewOrder,
  Order,
  OrderContent,
  OrderListQuery,
  OrderPage,
  OrderSummary,
  StatusChange,
  OrderStatus,
  PaidStatus,
  SubscriptionTerms,
} from './order-records';

const SCHEMA = 'orders';
const S = `"${SCHEMA}"`;
export const T = {
  orders: `${S}."orders"`,
  lines: `${S}."order_line_items"`,
  shipping: `${S}."order_shipping_lines"`,
  coupons: `${S}."order_coupon_lines"`,
  taxes: `${S}."order_tax_lines"`,
  history: `${S}."order_status_history"`,
  counts: `${S}."order_counts"`,
} as const;

// One statement reads whole orders as JSON in the record's own shape (the
// names of order-records.ts, amounts as numbers, dates as epoch milliseconds):
// each collection aggregated in a correlated subquery (index on order_id), so
// a page of N orders costs one round trip and one JSON decode, not 1 + 4N
// statements or a parse per column.
const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const LINES = (from: string = T.lines) => `(select coalesce(json_agg(json_build_object(
    'id', l.id, 'productId', l.product_id, 'priceId', l.price_id, 'variationId', l.variation_id,
    'name', l.name, 'quantity', l.quantity, 'price', l.price, 'subtotal', l.subtotal, 'discount', l.discount,
    'tax', l.tax, 'total', l.total, 'downloadable', l.downloadable, 'shippingRequired', l.shipping_required,
    'sku', l.sku, 'metaData', l.meta_data, 'subscription', l.subscription) order by l.id), '[]'::json) from ${from} l where l.order_id = o.id)`;
const SHIPPING = (from: string = T.shipping) => `(select coalesce(json_agg(json_build_object('id', s.id, 'methodId', s.method_id,
    'instanceId', s.instance_id, 'rateId', s.rate_id, 'label', s.label, 'total', s.total, 'totalTax', s.total_tax)
    order by s.id), '[]'::json) from ${from} s where s.order_id = o.id)`;
const COUPONS = (from: string = T.coupons) => `(select coalesce(json_agg(json_build_object('id', c.id, 'code', c.code, 'discount', c.discount)
    order by c.id), '[]'::json) from ${from} c where c.order_id = o.id)`;
const TAXES = (from: string = T.taxes) => `(select coalesce(json_agg(json_build_object('id', t.id, 'rateId', t.rate_id, 'label', t.label,
    'compound', t.compound, 'rate', t.rate, 'taxTotal', t.tax_total, 'shippingTaxTotal', t.shipping_tax_total)
    order by t.id), '[]'::json) from ${from} t where t.order_id = o.id)`;

const SUMMARY_FIELDS = `'id', o.id, 'status', o.status, 'paidStatus', o.paid_status, 'currency', o.currency,
  'customerId', o.customer_id, 'total', o.total, 'itemCount', o.item_count,
  'dateCreated', ${ms('o.date_created')}, 'dateModified', ${ms('o.date_modified')},
  'datePaid', ${ms('o.date_paid')}, 'dateCompleted', ${ms('o.date_completed')}`;

/**
 * The order row `o` as the JSON of an `Order` (addresses, meta and dates still to convert: see mapOrder),
 * its collections read from their tables, or from other relations (a statement's own inserts, which its
 * reads of the tables do not see).
 */
const orderJson = (from: { lines?: string; shipping?: string; coupons?: string; taxes?: string } = {}) => `json_build_object(${SUMMARY_FIELDS},
  'orderKey', o.order_key, 'checkoutKey', o.checkout_key, 'paymentMethod', o.payment_method,
  'paymentMethodTitle', o.payment_method_title, 'transactionId', o.transaction_id, 'customerNote', o.customer_note,
  'billing', o.billing, 'shipping', o.shipping,
  'lineItems', ${LINES(from.lines)}, 'shippingLines', ${SHIPPING(from.shipping)}, 'couponLines', ${COUPONS(from.coupons)},
  'taxLines', ${TAXES(from.taxes)},
  'subtotal', o.subtotal, 'discountTotal', o.discount_total, 'shippingTotal', o.shipping_total,
  'totalTax', o.total_tax, 'refundedTotal', o.refunded_total, 'metaData', o.meta_data,
  'reservationId', o.reservation_id, 'createdVia', o.created_via, 'couponCodes', o.coupon_codes)`;
const ORDER_JSON = orderJson();
const SUMMARY_JSON = `json_build_object(${SUMMARY_FIELDS})`;

type Json = Record<string, any>;

function address(value: unknown): Address {
  const a = (value ?? {}) as Record<string, string>;
  return {
    firstName: a.first_name ?? '',
    lastName: a.last_name ?? '',
    company: a.company ?? '',
    address1: a.address_1 ?? '',
    address2: a.address_2 ?? '',
    city: a.city ?? '',
    state: a.state ?? '',
    postcode: a.postcode ?? '',
    country: a.country ?? '',
    email: a.email ?? '',
    phone: a.phone ?? '',
  };
}

function addressJson(a: Address): string {
  return JSON.stringify({
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    address_1: a.address1,
    address_2: a.address2,
    city: a.city,
    state: a.state,
    postcode: a.postcode,
    country: a.country,
    email: a.email,
    phone: a.phone,
  });
}

function meta(value: unknown): MetaEntry[] {
  if (!Array.isArray(value) || !value.length) return [];
  return (value as Array<{ id: number; key: string; value: unknown }>).map((m) => ({
    id: Number(m.id),
    key: String(m.key),
    valueJson: JSON.stringify(m.value ?? null),
  }));
}

function metaValue(list: Array<Pick<MetaEntry, 'key' | 'valueJson'>>): Array<{ id: number; key: string; value: unknown }> {
  return list.map((m, i) => ({ id: i + 1, key: m.key, value: JSON.parse(m.valueJson || 'null') }));
}

function metaJson(list: Array<Pick<MetaEntry, 'key' | 'valueJson'>>): string {
  return JSON.stringify(metaValue(list));
}

/** A line's subscription terms as its jsonb column holds them (null: a one-time price). */
const termsJson = (l: { subscription?: SubscriptionTerms | null }): string | null => (l.subscription ? JSON.stringify(l.subscription) : null);

/** A json column as pg hands it over (text when the type parser is not set) -> its value. */
export const parsed = (value: unknown): any => (typeof value === 'string' ? JSON.parse(value) : value);
const dateOrNull = (value: number | null): Date | null => (value === null ? null : new Date(value));

/** ORDER_JSON, decoded: only the stored shapes that differ from the record's are converted (in place). */
function mapOrder(j: Json): Order {
  j.billing = address(j.billing);
  j.shipping = address(j.shipping);
  for (const l of j.lineItems as Json[]) l.metaData = meta(l.metaData);
  j.metaData = meta(j.metaData);
  mapSummary(j);
  return j as Order;
}

function mapSummary(j: Json): OrderSummary {
  j.dateCreated = new Date(j.dateCreated);
  j.dateModified = new Date(j.dateModified);
  j.datePaid = dateOrNull(j.datePaid);
  j.dateCompleted = dateOrNull(j.dateCompleted);
  return j as OrderSummary;
}

function searchText(id: number, billing: Address): string {
  return `${id} ${searchTextAfterId(billing)}`;
}

/** What follows the id in `search_text` (lowercase: the list's search compares lowercase). */
function searchTextAfterId(billing: Address): string {
  return [billing.email, billing.firstName, billing.lastName].join(' ').toLowerCase();
}

/**
 * The whole order (inside a transaction: `lock` holds its row until commit).
 *
 * Locked and read in one statement. When the lock had to wait for a concurrent
 * writer, Postgres hands back that writer's version of the order row but the
 * line subqueries still read the statement's snapshot, from before that commit.
 * `fresh` tells: the row version the snapshot sees is the one locked (every
 * write of lines also writes the order row, replaceContent). If not, the lines
 * are read again now that the lock is held.
 */
export async function findOrder(em: EntityManager, id: number, lock = false): Promise<Order | null> {
  if (!lock) {
    const rows = await em.execute(`select ${ORDER_JSON} as o from ${T.orders} o where o.id = ?`, [id]);
    return rows[0] ? mapOrder(parsed(rows[0].o)) : null;
  }
  // Locked and read in one statement; when the lock waited for another writer the row was
  // re-checked but the collections were read from the older snapshot (`fresh` false): read again.
  const rows = await em.execute(
    `select ${ORDER_JSON} as o, o.ctid = (select x.ctid from ${T.orders} x where x.id = o.id) as fresh
     from ${T.orders} o where o.id = ? for update of o`,
    [id],
  );
  if (!rows[0]) return null;
  return rows[0].fresh ? mapOrder(parsed(rows[0].o)) : findOrder(em, id);
}

/** Hot read outside transactions, on the prepared-statement reader. */
export async function readOrder(reader: Reader, id: number): Promise<Order | null> {
  return (await readOrderVersion(reader, id))?.order ?? null;
}

/** Locks the order's row; the version (`xmin`) it has, or null when there is no such order. */
export async function lockOrderVersion(em: EntityManager, id: number): Promise<string | null> {
  const rows = await em.execute<{ version: string }[]>(`select xmin::text as version from ${T.orders} where id = ? for update`, [id]);
  return rows[0]?.version ?? null;
}

/** An order and the version of its row (`xmin`) it was read at, for a write guarded by it. */
export async function readOrderVersion(reader: Reader, id: number): Promise<{ order: Order; version: string } | null> {
  const rows = await reader.query<{ o: unknown; version: string }>(
    `select ${ORDER_JSON} as o, o.xmin::text as version from ${T.orders} o where o.id = ?`,
    [id],
  );
  return rows[0] ? { order: mapOrder(parsed(rows[0].o)), version: rows[0].version } : null;
}

export async function findIdByCheckoutKey(em: EntityManager, key: string): Promise<number | null> {
  const rows = await em.execute(`select id from ${T.orders} where checkout_key = ?`, [key]);
  return rows[0] ? Number(rows[0].id) : null;
}

// Rows of a new order's collections, passed as one JSON array per table and
// inserted in array order (line ids follow the input order).
const FROM_JSON = (columns: string) => `rows from (jsonb_to_recordset(?::jsonb) as (${columns})) with ordinality as x`;
const LINE_FIELDS = `product_id bigint, price_id bigint, variation_id bigint, name varchar, quantity int, price bigint,
  subtotal bigint, discount bigint, tax bigint, total bigint, downloadable boolean, shipping_required boolean, sku varchar,
  meta_data jsonb, subscription jsonb`;
const SHIPPING_FIELDS = 'method_id varchar, instance_id bigint, rate_id varchar, label varchar, total bigint, total_tax bigint';
const COUPON_FIELDS = 'code varchar, discount bigint';
const TAX_FIELDS = 'rate_id bigint, label varchar, compound boolean, rate varchar, tax_total bigint, shipping_tax_total bigint';
const names = (fields: string) => fields.split(',').map((f) => f.trim().split(/\s+/)[0]);
const insertRows = (table: string, fields: string) =>
  `insert into ${table} (order_id, ${names(fields).join(', ')})
     select o.id, ${names(fields).map((n) => `x.${n}`).join(', ')} from o, ${FROM_JSON(fields)} order by x.ordinality
     returning *`;

/**
 * Inserts a whole new order in ONE statement: the row (id drawn first, so its
 * search text goes in with it), its line items, shipping, coupon and tax lines,
 * and its first status-history row. Returns the order as written, or null when
 * the checkout key exists (a concurrent twin won: `on conflict do nothing`
 * waits for it, and nothing of this order is written).
 */
export async function insertOrder(
  em: EntityManager,
  order: NewOrder,
  now: Date,
  created: Omit<StatusChange, 'orderId' | 'changedAt'>,
): Promise<Order | null> {
  const { sql, params } = insertOrderStatement(order, now, created);
  const rows = await em.execute(sql, params);
  // Built from the rows the statement inserted (its reads of the tables would not see them).
  return rows[0] ? mapOrder(parsed(rows[0].o)) : null;
}

/** The ids of a new order and of its line items (in input order), drawn before it is inserted. */
export interface NewOrderIds {
  order: number;
  lines: number[];
}

/** Draws the ids of new orders and their line items, in blocks (see SequenceIds). */
export function newOrderIds(reader: Reader): (lineCount: number) => Promise<NewOrderIds> {
  const orders = new SequenceIds(reader, T.orders, 32);
  const lines = new SequenceIds(reader, T.lines, 64);
  return async (lineCount) => {
    const [order] = await orders.take(1);
    return { order, lines: await lines.take(lineCount) };
  };
}

/**
 * `insertOrder` with ids drawn beforehand (SequenceIds) and the order's
 * events: one autocommit statement writes the order and, only if it was
 * inserted, its outbox rows (the caller wakes the relay). Null when the
 * checkout key exists (nothing is written).
 */
export async function insertOrderWithEvents(
  reader: Reader,
  order: NewOrder,
  ids: NewOrderIds,
  now: Date,
  created: Omit<StatusChange, 'orderId' | 'changedAt'>,
  events: readonly OutboxRow[],
): Promise<{ order: Order; version: string } | null> {
  const { sql, params } = insertOrderStatement(order, now, created, ids, events);
  const rows = await reader.query<{ o: unknown; version: string }>(sql, params);
  return rows[0] ? { order: mapOrder(parsed(rows[0].o)), version: rows[0].version } : null;
}

function insertOrderStatement(
  order: NewOrder,
  now: Date,
  created: Omit<StatusChange, 'orderId' | 'changedAt'>,
  ids?: NewOrderIds,
  events: readonly OutboxRow[] = [],
): { sql: string; params: unknown[] } {
  const itemCount = order.lineItems.reduce((n, l) => n + l.quantity, 0);
  const lineFields = ids ? `id bigint, ${LINE_FIELDS}` : LINE_FIELDS;
  return {
    sql: `with n as (select ${ids ? '?::bigint' : `nextval(pg_get_serial_sequence('${T.orders}', 'id'))`} as id),
     o as (
       insert into ${T.orders} (id, status, paid_status, order_key, checkout_key, currency, customer_id, payment_method,
         payment_method_title, transaction_id, customer_note, billing, shipping, date_created, date_modified,
         meta_data, reservation_id, created_via, coupon_codes, search_text,
         subtotal, discount_total, shipping_total, total_tax, total, item_count)
       values ((select id from n), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?::jsonb, ?, ?, ?::jsonb,
         (select id from n) || ' ' || ?, ?, ?, ?, ?, ?, ?)
       on conflict do nothing
       returning *, xmin::text as row_version),
     l as (${insertRows(T.lines, lineFields)}),
     s as (${insertRows(T.shipping, SHIPPING_FIELDS)}),
     c as (${insertRows(T.coupons, COUPON_FIELDS)}),
     t as (${insertRows(T.taxes, TAX_FIELDS)}),
     h as (insert into ${T.history} (order_id, from_status, to_status, by_user_id, cause, note, changed_at)
       select o.id, ?, ?, ?, ?, ?, ? from o)${events.length ? `,
     ${outboxInsert(SCHEMA, 'e', events.length, 'o')}` : ''}
     select ${orderJson({ lines: 'l', shipping: 's', coupons: 'c', taxes: 't' })} as o, o.row_version as version from o`,
    params: [
      ...(ids ? [ids.order] : []),
      order.status,
      order.paidStatus,
      order.orderKey,
      order.checkoutKey,
      order.currency,
      order.customerId,
      order.paymentMethod,
      order.paymentMethodTitle,
      order.transactionId,
      order.customerNote,
      addressJson(order.billing),
      addressJson(order.shipping),
      now,
      now,
      metaJson(order.metaData),
      order.reservationId,
      order.createdVia,
      JSON.stringify(order.couponCodes),
      searchTextAfterId(order.billing),
      order.subtotal,
      order.discountTotal,
      order.shippingTotal,
      order.totalTax,
      order.total,
      itemCount,
      JSON.stringify(
        order.lineItems.map((l, i) => ({
          ...(ids ? { id: ids.lines[i] } : {}),
          product_id: l.productId,
          price_id: l.priceId,
          variation_id: l.variationId,
          name: l.name,
          quantity: l.quantity,
          price: l.price,
          subtotal: l.subtotal,
          discount: l.discount,
          tax: l.tax,
          total: l.total,
          downloadable: l.downloadable,
          shipping_required: l.shippingRequired,
          sku: l.sku,
          meta_data: metaValue(l.metaData),
          subscription: l.subscription ?? null,
        })),
      ),
      JSON.stringify(
        order.shippingLines.map((s) => ({
          method_id: s.methodId,
          instance_id: s.instanceId,
          rate_id: s.rateId,
          label: s.label,
          total: s.total,
          total_tax: s.totalTax,
        })),
      ),
      JSON.stringify(order.couponLines.map((c) => ({ code: c.code, discount: c.discount }))),
      JSON.stringify(
        order.taxLines.map((t) => ({
          rate_id: t.rateId,
          label: t.label,
          compound: t.compound,
          rate: t.rate,
          tax_total: t.taxTotal,
          shipping_tax_total: t.shippingTaxTotal,
        })),
      ),
      created.fromStatus,
      created.toStatus,
      created.byUserId,
      created.cause,
      created.note,
      now,
      ...outboxParams(events),
    ],
  };
}

/**
 * Replaces the lines of the order and its totals. Line items that carry an
 * `id` keep it (updated in place); the others are inserted; the order's other
 * line items are deleted. Shipping, coupon and tax lines are rewritten.
 */
export async function replaceContent(em: EntityManager, orderId: number, content: OrderContent): Promise<void> {
  const kept = content.lineItems.map((l) => (l as { id?: number }).id).filter((id): id is number => !!id);
  await em.execute(
    `delete from ${T.lines} where order_id = ?${kept.length ? ' and id not in (?)' : ''}`,
    kept.length ? [orderId, kept] : [orderId],
  );
  for (const table of [T.shipping, T.coupons, T.taxes]) {
    await em.execute(`delete from ${table} where order_id = ?`, [orderId]);
  }
  for (const l of content.lineItems) {
    const id = (l as { id?: number }).id;
    if (!id) continue;
    await em.execute(
      `update ${T.lines} set product_id = ?, price_id = ?, variation_id = ?, name = ?, quantity = ?, price = ?, subtotal = ?,
         discount = ?, tax = ?, total = ?, downloadable = ?, shipping_required = ?, sku = ?, meta_data = ?::jsonb,
         subscription = ?::jsonb
       where id = ? and order_id = ?`,
      [l.productId, l.priceId, l.variationId, l.name, l.quantity, l.price, l.subtotal, l.discount, l.tax, l.total,
        l.downloadable, l.shippingRequired, l.sku, metaJson(l.metaData), termsJson(l), id, orderId],
    );
  }
  const fresh = content.lineItems.filter((l) => !(l as { id?: number }).id);
  if (fresh.length) {
    await em.execute(
      `insert into ${T.lines} (order_id, product_id, price_id, variation_id, name, quantity, price, subtotal, discount,
         tax, total, downloadable, shipping_required, sku, meta_data, subscription) values ${fresh
           .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)')
           .join(', ')}`,
      fresh.flatMap((l) => [
        orderId,
        l.productId,
        l.priceId,
        l.variationId,
        l.name,
        l.quantity,
        l.price,
        l.subtotal,
        l.discount,
        l.tax,
        l.total,
        l.downloadable,
        l.shippingRequired,
        l.sku,
        metaJson(l.metaData),
        termsJson(l),
      ]),
    );
  }
  if (content.shippingLines.length) {
    await em.execute(
      `insert into ${T.shipping} (order_id, method_id, instance_id, rate_id, label, total, total_tax) values ${content.shippingLines
        .map(() => '(?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      content.shippingLines.flatMap((s) => [orderId, s.methodId, s.instanceId, s.rateId, s.label, s.total, s.totalTax]),
    );
  }
  if (content.couponLines.length) {
    await em.execute(
      `insert into ${T.coupons} (order_id, code, discount) values ${content.couponLines.map(() => '(?, ?, ?)').join(', ')}`,
      content.couponLines.flatMap((c) => [orderId, c.code, c.discount]),
    );
  }
  if (content.taxLines.length) {
    await em.execute(
      `insert into ${T.taxes} (order_id, rate_id, label, compound, rate, tax_total, shipping_tax_total) values ${content.taxLines
        .map(() => '(?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      content.taxLines.flatMap((t) => [orderId, t.rateId, t.label, t.compound, t.rate, t.taxTotal, t.shippingTaxTotal]),
    );
  }
  const itemCount = content.lineItems.reduce((n, l) => n + l.quantity, 0);
  await em.execute(
    `update ${T.orders} set subtotal = ?, discount_total = ?, shipping_total = ?, total_tax = ?, total = ?, item_count = ?
     where id = ?`,
    [content.subtotal, content.discountTotal, content.shippingTotal, content.totalTax, content.total, itemCount, orderId],
  );
}

/** Scalar fields an update may change (absent = unchanged). */
export interface OrderFieldChanges {
  status?: OrderStatus;
  paidStatus?: PaidStatus;
  currency?: string;
  customerId?: number;
  paymentMethod?: string;
  paymentMethodTitle?: string;
  transactionId?: string;
  customerNote?: string;
  billing?: Address;
  shipping?: Address;
  datePaid?: Date | null;
  dateCompleted?: Date | null;
  metaData?: Array<Pick<MetaEntry, 'key' | 'valueJson'>>;
  reservationId?: string;
  couponCodes?: string[];
  refundedTotal?: number;
  checkoutKey?: string | null;
}

const COLUMN: Record<keyof OrderFieldChanges, [string, (v: any) => unknown]> = {
  status: ['status', (v) => v],
  paidStatus: ['paid_status', (v) => v],
  currency: ['currency', (v) => v],
  customerId: ['customer_id', (v) => v],
  paymentMethod: ['payment_method', (v) => v],
  paymentMethodTitle: ['payment_method_title', (v) => v],
  transactionId: ['transaction_id', (v) => v],
  customerNote: ['customer_note', (v) => v],
  billing: ['billing', addressJson],
  shipping: ['shipping', addressJson],
  datePaid: ['date_paid', (v) => v],
  dateCompleted: ['date_completed', (v) => v],
  metaData: ['meta_data', metaJson],
  reservationId: ['reservation_id', (v) => v],
  couponCodes: ['coupon_codes', (v) => JSON.stringify(v)],
  refundedTotal: ['refunded_total', (v) => v],
  checkoutKey: ['checkout_key', (v) => v],
};

export async function updateOrderFields(em: EntityManager, id: number, changes: OrderFieldChanges, now: Date): Promise<void> {
  const { sets, params } = fieldAssignments(id, changes, now);
  await em.execute(`update ${T.orders} set ${sets} where id = ?`, [...params, id]);
}

function fieldAssignments(id: number, changes: OrderFieldChanges, now: Date): { sets: string; params: unknown[] } {
  const sets: string[] = ['date_modified = ?'];
  const params: unknown[] = [now];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const [column, encode] = COLUMN[key as keyof OrderFieldChanges];
    const isJson = ['billing', 'shipping', 'meta_data', 'coupon_codes'].includes(column);
    sets.push(`"${column}" = ?${isJson ? '::jsonb' : ''}`);
    params.push(encode(value));
  }
  if (changes.billing) {
    sets.push('search_text = ?');
    params.push(searchText(id, changes.billing));
  }
  return { sets: sets.join(', '), params };
}

/** `updateOrderFields` and the status-history row, in one statement (a status transition). */
export async function updateOrderWithHistory(
  em: EntityManager,
  id: number,
  changes: OrderFieldChanges,
  change: Omit<StatusChange, 'orderId'>,
  now: Date,
): Promise<void> {
  const { sets, params } = fieldAssignments(id, changes, now);
  await em.execute(
    `with u as (update ${T.orders} set ${sets} where id = ? returning id)
     insert into ${T.history} (order_id, from_status, to_status, by_user_id, cause, note, changed_at)
     select u.id, ?, ?, ?, ?, ?, ? from u`,
    [...params, id, change.fromStatus, change.toStatus, change.byUserId, change.cause, change.note, change.changedAt],
  );
}

/**
 * A status transition in one autocommit statement, only while the order's row
 * is the version the caller read (`readOrderVersion`): the changes, the
 * status-history row and the transition's outbox rows commit together. False
 * when another writer changed the order first (nothing is written). Every
 * write of an order's collections also writes its row, so the version covers
 * them too.
 */
export async function updateOrderIfUnchanged(
  reader: Reader,
  read: { id: number; version: string },
  changes: OrderFieldChanges,
  change: Omit<StatusChange, 'orderId'>,
  now: Date,
  events: readonly OutboxRow[],
): Promise<boolean> {
  const { sets, params } = fieldAssignments(read.id, changes, now);
  const rows = await reader.query<{ changed: boolean }>(
    `with u as (update ${T.orders} set ${sets} where id = ? and xmin = ?::text::xid returning id),
     h as (insert into ${T.history} (order_id, from_status, to_status, by_user_id, cause, note, changed_at)
       select u.id, ?, ?, ?, ?, ?, ? from u)${events.length ? `,
     ${outboxInsert(SCHEMA, 'e', events.length, 'u')}` : ''}
     select exists (select 1 from u) as changed`,
    [
      ...params,
      read.id,
      read.version,
      change.fromStatus,
      change.toStatus,
      change.byUserId,
      change.cause,
      change.note,
      change.changedAt,
      ...outboxParams(events),
    ],
  );
  return rows[0].changed;
}

export async function statusHistory(em: EntityManager, orderId: number): Promise<StatusChange[]> {
  const rows = await em.execute(`select * from ${T.history} where order_id = ? order by id`, [orderId]);
  return rows.map((r: Json) => ({
    orderId: Number(r.order_id),
    fromStatus: r.from_status,
    toStatus: r.to_status,
    byUserId: Number(r.by_user_id),
    cause: r.cause,
    note: r.note,
    changedAt: r.changed_at instanceof Date ? r.changed_at : new Date(String(r.changed_at)),
  }));
}

export async function deleteOrder(em: EntityManager, id: number): Promise<void> {
  await em.execute(`delete from ${T.orders} where id = ?`, [id]);
}

const SORT: Record<OrderListQuery['orderby'], string> = {
  id: 'o.id',
  date: 'o.date_created',
  date_modified: 'o.date_modified',
  total: 'o.total',
  status: 'o.status',
};

/** An order of a page and the version of its row (`xmin`) the page was read at. */
export type OrderVersion = readonly [id: number, version: string];

/** The page's order ids with their row versions, and the total: one statement. */
export async function listOrderVersions(reader: Reader, q: OrderListQuery): Promise<{ keys: OrderVersion[]; total: number }> {
  const page = await listPage(reader, q, 'json_build_array(o.id, o.xmin::text)');
  return { keys: page.orders as unknown as OrderVersion[], total: page.total };
}

/**
 * The orders of `keys` in their order: from `documents` while their version
 * holds, the others in one statement (then possibly newer than the versions
 * given: an order changed in between shows its new state; one deleted drops out).
 */
export async function ordersAt(reader: Reader, documents: OrderDocuments, keys: readonly OrderVersion[]): Promise<Order[]> {
  // Held here: while the statement runs, other lists may replace or evict these entries.
  const found = new Map<number, Order>();
  const missing: number[] = [];
  for (const [id, version] of keys) {
    const order = documents.get(id, version);
    if (order) found.set(id, order);
    else missing.push(id);
  }
  if (missing.length) {
    const rows = await reader.query<{ version: string; o: unknown }>(
      `select o.xmin::text as version, ${ORDER_JSON} as o from ${T.orders} o where o.id = any(?::bigint[])`,
      [`{${missing.join(',')}}`],
    );
    for (const row of rows) {
      const order = mapOrder(parsed(row.o));
      documents.set(order.id, row.version, order);
      found.set(order.id, order);
    }
  }
  return keys.map(([id]) => found.get(id)).filter((o): o is Order => !!o);
}

/** A page of order summaries and the total, in one statement. */
export async function listOrderSummaries(reader: Reader, q: OrderListQuery): Promise<OrderPage<OrderSummary>> {
  const page = await listPage(reader, q, SUMMARY_JSON);
  return { orders: page.orders.map(mapSummary), total: page.total };
}

/**
 * One statement, one row: the page's ids first (index order, LIMIT applied),
 * then those orders aggregated as one JSON array in list order, and the total
 * (also past the last page). The total of the status / customer filters comes
 * from order_counts (at most 128 rows summed, whatever the number of orders);
 * a date or search filter counts the matching rows.
 */
async function listPage(reader: Reader, q: OrderListQuery, json: string): Promise<OrderPage<Json>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.statuses.length) {
    where.push('o.status in (?)');
    params.push(q.statuses);
  }
  if (q.excludeStatuses.length) {
    where.push('o.status not in (?)');
    params.push(q.excludeStatuses);
  }
  if (q.customerId !== null) {
    // A range, not `=`: the planner keeps the customer in the page's sort (see pageOrderSql) only when it is not a constant.
    where.push('o.customer_id between ? and ?');
    params.push(q.customerId, q.customerId);
  }
  const counted = where.length;
  const countParams: unknown[] = [q.customerId ?? -1];
  if (q.statuses.length) countParams.push(q.statuses);
  if (q.excludeStatuses.length) countParams.push(q.excludeStatuses);
  if (q.after) {
    where.push('o.date_created >= ?');
    params.push(q.after);
  }
  if (q.before) {
    where.push('o.date_created <= ?');
    params.push(q.before);
  }
  if (q.search) {
    const like = `%${escapeLike(q.search.toLowerCase())}%`;
    where.push('o.search_text like ?');
    params.push(like);
  }
  const whereSql = where.length ? `where ${where.join(' and ')}` : '';
  const dir = q.order === 'asc' ? 'asc' : 'desc';
  const sortKeys = `${SORT[q.orderby]} ${dir}${q.orderby === 'id' ? '' : `, o.id ${dir}`}`;
  const orderSql = `order by ${sortKeys}`;
  // One customer's page reads the customer's index in order. Sorted by date alone, the planner may walk the
  // date index backwards and filter, past every newer order of other customers (guests' orders all newer than
  // a regular's: 1,500 rows for a page of 10). With the customer first in the sort only the customer's index
  // gives the order: (customer_id, date_created, id) read either way, or (customer_id, id desc), whose customer
  // runs opposite to its id.
  const customerDir = q.orderby !== 'id' ? dir : dir === 'asc' ? 'desc' : 'asc';
  const pageOrderSql = q.customerId !== null ? `order by o.customer_id ${customerDir}, ${sortKeys}` : orderSql;
  const offset = q.offset > 0 ? q.offset : (q.page - 1) * q.perPage;
  const byCounters = where.length === counted;
  const total = byCounters
    ? `(select coalesce(sum(c.n), 0) from ${T.counts} c where c.customer_id = ?${q.statuses.length ? ' and c.status in (?)' : ''}${
        q.excludeStatuses.length ? ' and c.status not in (?)' : ''
      })`
    : `(select count(*) from ${T.orders} o ${whereSql})`;
  const rows = await reader.query<{ total: string; orders: unknown }>(
    `with page as (select o.id from ${T.orders} o ${whereSql} ${pageOrderSql} limit ? offset ?)
     select ${total} as total,
       (select coalesce(json_agg(${json} ${orderSql}), '[]'::json) from page join ${T.orders} o on o.id = page.id) as orders`,
    [...params, q.perPage, offset, ...(byCounters ? countParams : params)],
  );
  return { orders: parsed(rows[0].orders) as Json[], total: Number(rows[0].total) };
}

/**
 * Cancelled orders holding a late payment whose refund may be resumed: due,
 * refunding or failed-but-retryable, untouched since `before` (the domain
 * decides each under its lock). Migration 0005's partial index keeps the
 * scan to cancelled paid orders; entries that wait for an admin never match,
 * so they cannot crowd out the rest.
 */
export async function lateRefundCandidates(em: EntityManager, before: Date): Promise<number[]> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select o.id from ${T.orders} o
      where o.status = 'cancelled' and o.paid_status = 'paid'
        and exists (select 1 from jsonb_array_elements(o.meta_data) m
                     where m->>'key' = 'refund_due'
                       and (m->'value'->>'state' in ('due', 'refunding') or (m->'value'->>'state' = 'failed' and m->'value'->>'retryable' = 'true'))
                       and m->'value'->>'since' < ?)
      order by o.id limit 100`,
    [before.toISOString()],
  );
  return rows.map((r) => Number(r.id));
}
