import type { Reader } from '@storefront/persistence';
import type { NewSubscription, Subscription, SubscriptionListQuery, SubscriptionTransition } from './subscription-records';

const T = '"orders"."subscriptions"';

const COLUMNS = `id, customer_id, status, currency, total, billing_period, billing_interval, trial_days, start_date,
  next_payment_date, last_payment_date, end_date, trial_end_date, payment_method, payment_method_title,
  parent_order_id, related_order_ids, suspension_count, billing, shipping, lines, date_created, date_modified`;

type Row = Record<string, any>;
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));

function mapRow(r: Row): Subscription {
  return {
    id: Number(r.id),
    customerId: Number(r.customer_id),
    status: r.status,
    currency: r.currency,
    total: Number(r.total),
    billingPeriod: r.billing_period,
    billingInterval: Number(r.billing_interval),
    trialDays: Number(r.trial_days),
    startDate: new Date(r.start_date),
    nextPaymentDate: date(r.next_payment_date),
    lastPaymentDate: date(r.last_payment_date),
    endDate: date(r.end_date),
    trialEndDate: date(r.trial_end_date),
    paymentMethod: r.payment_method,
    paymentMethodTitle: r.payment_method_title,
    parentOrderId: Number(r.parent_order_id),
    relatedOrderIds: (r.related_order_ids as Array<string | number>).map(Number),
    suspensionCount: Number(r.suspension_count),
    billing: json(r.billing),
    shipping: json(r.shipping),
    lines: json(r.lines),
    dateCreated: new Date(r.date_created),
    dateModified: new Date(r.date_modified),
  };
}

/**
 * Starts the given subscriptions in one statement; one already started (same
 * start key: a redelivered order_paid) is left as it is.
 */
export async function startSubscriptions(reader: Reader, subs: readonly NewSubscription[], now: Date): Promise<number> {
  if (!subs.length) return 0;
  const rows = await reader.query<{ id: string }>(
    `insert into ${T} (start_key, customer_id, status, currency, total, billing_period, billing_interval, trial_days,
       start_date, next_payment_date, last_payment_date, end_date, trial_end_date, payment_method, payment_method_title,
       parent_order_id, related_order_ids, billing, shipping, lines, date_created, date_modified)
     select x.start_key, x.customer_id, x.status, x.currency, x.total, x.billing_period, x.billing_interval, x.trial_days,
       x.start_date, x.next_payment_date, x.last_payment_date, x.end_date, x.trial_end_date, x.payment_method,
       x.payment_method_title, x.parent_order_id, array[x.parent_order_id], x.billing, x.shipping, x.lines, ?, ?
     from jsonb_to_recordset(?::jsonb) as x(start_key text, customer_id bigint, status text, currency text, total bigint,
       billing_period text, billing_interval int, trial_days int, start_date timestamptz, next_payment_date timestamptz,
       last_payment_date timestamptz, end_date timestamptz, trial_end_date timestamptz, payment_method text,
       payment_method_title text, parent_order_id bigint, billing jsonb, shipping jsonb, lines jsonb)
     on conflict (start_key) do nothing
     returning id`,
    [
      now,
      now,
      JSON.stringify(
        subs.map((s) => ({
          start_key: s.startKey,
          customer_id: s.customerId,
          status: s.status,
          currency: s.currency,
          total: s.total,
          billing_period: s.billingPeriod,
          billing_interval: s.billingInterval,
          trial_days: s.trialDays,
          start_date: s.startDate,
          next_payment_date: s.nextPaymentDate,
          last_payment_date: s.lastPaymentDate,
          end_date: s.endDate,
          trial_end_date: s.trialEndDate,
          payment_method: s.paymentMethod,
          payment_method_title: s.paymentMethodTitle,
          parent_order_id: s.parentOrderId,
          billing: s.billing,
          shipping: s.shipping,
          lines: s.lines,
        })),
      ),
    ],
  );
  return rows.length;
}

/** One subscription; `customerId` > 0 limits it to that customer's. */
export async function findSubscription(reader: Reader, id: number, customerId = 0): Promise<Subscription | null> {
  const rows = await reader.query<Row>(
    `select ${COLUMNS} from ${T} where id = ?${customerId ? ' and customer_id = ?' : ''}`,
    customerId ? [id, customerId] : [id],
  );
  return rows[0] ? mapRow(rows[0]) : null;
}

/** A page of subscriptions, newest first, with the count of all that match. */
export async function listSubscriptions(reader: Reader, q: SubscriptionListQuery): Promise<{ subscriptions: Subscription[]; total: number }> {
  const conditions: Array<[string, unknown]> = [];
  if (q.customerId) conditions.push(['customer_id = ?', q.customerId]);
  if (q.status) conditions.push(['status = ?', q.status]);
  if (q.after) conditions.push(['start_date >= ?', q.after]);
  if (q.before) conditions.push(['start_date <= ?', q.before]);
  const where = conditions.map(([sql]) => sql);
  const params = conditions.map(([, value]) => value);
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const rows = await reader.query<Row & { total_count: string }>(
    `select ${COLUMNS}, count(*) over () as total_count from ${T} ${filter} order by id desc limit ? offset ?`,
    [...params, q.perPage, (q.page - 1) * q.perPage],
  );
  if (rows.length) return { subscriptions: rows.map(mapRow), total: Number(rows[0].total_count) };
  // A page past the end still reports how many there are.
  const count = await reader.query<{ n: string }>(`select count(*) as n from ${T} ${filter}`, params);
  return { subscriptions: [], total: Number(count[0].n) };
}

/**
 * Moves a customer's subscription to `t.to` if its status is still one of
 * `t.from` (one conditional statement: two racing requests cannot both
 * apply); the note is appended to its notes. Null when it did not apply.
 */
export async function transitionSubscription(
  reader: Reader,
  id: number,
  customerId: number,
  t: SubscriptionTransition,
  now: Date,
): Promise<Subscription | null> {
  const endDate = t.endDate === 'next_payment' ? 'next_payment_date' : t.endDate === 'clear' ? 'null' : 'end_date';
  const rows = await reader.query<Row>(
    `update ${T} set status = ?, end_date = ${endDate},
       suspension_count = suspension_count + ?,
       notes = notes || jsonb_build_array(jsonb_build_object('note', ?::text, 'customer', true, 'date', ?::timestamptz)),
       date_modified = ?
     where id = ? and customer_id = ? and status in (?)
     returning ${COLUMNS}`,
    [t.to, t.suspend ? 1 : 0, t.note, now, now, id, customerId, [...t.from]],
  );
  return rows[0] ? mapRow(rows[0]) : null;
}
