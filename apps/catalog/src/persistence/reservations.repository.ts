import { inboxInsert, inboxParams, type InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import { Reservation, ReservationLine } from './entities';
import { T, tuplePlaceholders } from './sql';

/**
 * How the one-statement reservation aborts itself: plain SQL cannot raise, so
 * it casts this text to boolean, a 22P02 error naming the text. The text is
 * built from a row (not a constant the planner would fold and fail on).
 */
const NEEDS_CHECKS = 'reservation needs the checked path';

export type ReservationStatus = 'active' | 'committed' | 'released' | 'expired';

/** The reservation, row-locked until the transaction ends (serializes commit/release/sweep). */
export async function lockReservation(em: EntityManager, id: string): Promise<Reservation | null> {
  const rows = await em.execute(`select * from ${T.reservations} where id = ? for update`, [id]);
  return rows[0] ? em.map(Reservation, rows[0]) : null;
}

export function findReservation(em: EntityManager, id: string): Promise<Reservation | null> {
  return em.findOne(Reservation, { id });
}

export function reservationLines(em: EntityManager, id: string): Promise<ReservationLine[]> {
  return em.find(ReservationLine, { reservationId: id }, { orderBy: { productId: 'asc', variationId: 'asc' } });
}

export interface LineQuantity {
  productId: number;
  variationId: number;
  quantity: number;
}

/** What a reservation needs to know of a line's product (checks, shortages, low-stock events). */
export interface ReservableProduct {
  id: number;
  title: string;
  productType: string;
  manageStock: boolean;
  backordersAllowed: boolean;
  stockStatus: string;
  lowStockThreshold: number | null;
  sku: string;
}

export interface TakenLevel {
  productId: number;
  variationId: number;
  /** The level after this reservation took its units (before = after + quantity). */
  after: number;
}

export interface ReserveOutcome {
  /** False: the id existed (a retry, or a twin that committed first); nothing was taken. */
  created: boolean;
  products: ReservableProduct[];
  /** The owners of the lines' variation ids (missing ids are unknown variations). */
  variations: Array<{ id: number; productId: number }>;
  /** The levels of the managed lines, taken. */
  levels: TakenLevel[];
}

/**
 * A reservation in ONE statement (inside the caller's transaction): inserts the
 * reservation unless its id exists (a twin waits here for the first call to
 * end), then, only if it is new, takes each managed line's units off its level
 * (the level row is created at 0 - quantity when missing), records the
 * `reserved` movements and the lines. Levels are written in (product,
 * variation) order, so their row locks are taken in the one global order.
 * Nothing is checked here: the caller checks the returned products and levels
 * (unknown products or variations, shortages) and rolls back what it refuses.
 */
export async function reserveLines(em: EntityManager, input: ReserveInput): Promise<ReserveOutcome> {
  const { sql, params } = reserveStatement(input, { judged: false });
  const [row] = await em.execute<ReserveOutcome[]>(sql, params);
  return row;
}

export interface ReserveInput {
  id: string;
  now: Date;
  expiresAt: Date;
  userId: number;
  lines: readonly LineQuantity[];
}

/**
 * The usual reservation in one autocommit statement, no transaction: the
 * statement of `reserveLines`, which aborts itself (everything it wrote rolled
 * back) unless nothing needs judging: every product known, variations as
 * their products require, every managed line covered (or on backorder), no
 * unmanaged line out of stock, no level crossing its low-stock threshold
 * (that publishes stock_low). True when it reserved;
 * false for a refusal or an existing id: the caller then takes the checked
 * path in a transaction, which gives the precise answer.
 */
export async function reserveAtOnce(em: EntityManager, input: ReserveInput, lowStockDefault: number): Promise<boolean> {
  if (!Number.isSafeInteger(lowStockDefault)) throw new Error('the store low-stock threshold must be an integer');
  const { sql, params } = reserveStatement(input, { judged: true, lowStockDefault });
  try {
    // On the ORM's pool, outside a transaction (autocommit), not the reader's: a statement waiting on
    // a hot level's row lock must not hold one of the few connections hot reads share, and its text
    // varies with the line count (nothing to gain from preparing it).
    const [row] = await em.execute<{ created: boolean }[]>(sql, params);
    return row.created === true;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code === '22P02' && message?.includes(NEEDS_CHECKS)) return false;
    throw err;
  }
}

function reserveStatement(
  input: ReserveInput,
  check: { judged: false } | { judged: true; lowStockDefault: number },
): { sql: string; params: unknown[] } {
  const { id, now, expiresAt, userId, lines } = input;
  // Mirrors checkLines, shortages and recordLowStockEvents (domain/reservations, domain/stock) conservatively.
  const verdict = `not exists (select 1 from res) or (
       (select count(*) from prod) = (select count(distinct product_id) from req)
       and not exists (
         select 1 from req r join prod p on p.id = r.product_id
         where (case when p.product_type = 'variable'
                  then r.variation_id = 0 or not exists (select 1 from ${T.variations} v where v.id = r.variation_id and v.product_id = p.id)
                  else r.variation_id <> 0 end)
            or (not p.manage_stock and p.stock_status = 'outofstock'))
       and not exists (
         select 1 from taken t join req r on r.product_id = t.product_id and r.variation_id = t.variation_id
           join prod p on p.id = t.product_id
         where (t.quantity < 0 and not p.backorders_allowed)
            or (t.quantity + r.quantity > coalesce(p.low_stock_threshold, ?::int) and t.quantity <= coalesce(p.low_stock_threshold, ?::int))))`;
  const { judged } = check;
  return {
    sql: `with req (product_id, variation_id, quantity) as (values ${lines.map(() => '(?::int, ?::int, ?::int)').join(', ')}),
     res as (
       insert into ${T.reservations} (id, status, created_at, expires_at) values (?, 'active', ?, ?)
       on conflict do nothing returning id
     ),
     prod as (select * from ${T.products} where id in (select product_id from req)),
     taken as (
       insert into ${T.stockLevels} as l (product_id, variation_id, quantity, updated_at)
       select r.product_id, r.variation_id, -r.quantity, ?::timestamptz from req r join prod p on p.id = r.product_id and p.manage_stock
       where exists (select 1 from res)
       order by r.product_id, r.variation_id
       on conflict (product_id, variation_id) do update set quantity = l.quantity + excluded.quantity, updated_at = excluded.updated_at
       returning l.product_id, l.variation_id, l.quantity
     ),
     moved as (
       insert into ${T.stockMovements}
         (product_id, variation_id, user_id, created_at, quantity_before, quantity_after, delta, reason, note, reservation_id)
       select t.product_id, t.variation_id, ?::int, ?::timestamptz, t.quantity + r.quantity, t.quantity, -r.quantity, 'reserved', '', ?::varchar
       from taken t join req r on r.product_id = t.product_id and r.variation_id = t.variation_id
       order by t.product_id, t.variation_id
     ),
     lined as (
       insert into ${T.reservationLines} (reservation_id, product_id, variation_id, quantity, deducted)
       select ?::varchar, r.product_id, r.variation_id, r.quantity, coalesce(p.manage_stock, false)
       from req r left join prod p on p.id = r.product_id
       where exists (select 1 from res)
     )
     select exists (select 1 from res) as created,
       (select coalesce(json_agg(json_build_object(
          'id', p.id, 'title', p.title, 'productType', p.product_type, 'manageStock', p.manage_stock,
          'backordersAllowed', p.backorders_allowed, 'stockStatus', p.stock_status,
          'lowStockThreshold', p.low_stock_threshold, 'sku', p.sku)), '[]') from prod p) as products,
       (select coalesce(json_agg(json_build_object('id', v.id, 'productId', v.product_id)), '[]')
          from ${T.variations} v where v.id in (select variation_id from req where variation_id <> 0)) as variations,
       (select coalesce(json_agg(json_build_object('productId', t.product_id, 'variationId', t.variation_id, 'after', t.quantity)), '[]')
          from taken t) as levels${judged ? `,
       case when ${verdict} then true else (select '${NEEDS_CHECKS} (' || count(*) || ' lines)' from req)::boolean end as clean` : ''}`,
    params: [
      ...lines.flatMap((l) => [l.productId, l.variationId, l.quantity]),
      id,
      now,
      expiresAt,
      now,
      userId,
      now,
      id,
      id,
      ...(check.judged ? [check.lowStockDefault, check.lowStockDefault] : []),
    ],
  };
}

/**
 * Commits an active reservation still within its expiry, in one autocommit
 * statement (the row lock serializes it with release, sweep and other
 * commits), or finds it committed; null when the reservation is anything else
 * (the caller's full path).
 */
export async function commitActiveReservation(
  reader: Reader,
  id: string,
  now: Date,
): Promise<{ id: string; createdAt: Date; expiresAt: Date; lines: LineQuantity[] } | null> {
  // Committed already (order_paid's consumer came first): the same answer, as a retry gets.
  const rows = await reader.query<{ id: string; created_at: Date; expires_at: Date; lines: LineQuantity[] }>(
    `with u as (
       update ${T.reservations} set status = 'committed', settled_at = ?
       where id = ? and status = 'active' and expires_at > ? returning id, created_at, expires_at
     ),
     r as (
       select id, created_at, expires_at from u
       union all
       select id, created_at, expires_at from ${T.reservations} where id = ? and status = 'committed'
     )
     select r.id, r.created_at, r.expires_at, (
       select coalesce(json_agg(json_build_object('productId', l.product_id, 'variationId', l.variation_id, 'quantity', l.quantity)
         order by l.product_id, l.variation_id), '[]')
       from ${T.reservationLines} l where l.reservation_id = r.id) as lines
     from r limit 1`,
    [now, id, now, id],
  );
  const row = rows[0];
  return row ? { id: row.id, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at), lines: row.lines } : null;
}

/** Active reservations past their expiry that no other sweeper holds, locked for this transaction. */
export async function lockExpiredReservations(em: EntityManager, now: Date, limit: number): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from ${T.reservations} where status = 'active' and expires_at < ?
     order by expires_at limit ? for update skip locked`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Commits the reservation if it is active (the saga's CommitReservation may
 * not have come yet) and tells whether it is committed now; if so the event
 * (`consumer`, `eventId`) is recorded in the inbox by the same statement, so
 * a redelivery after a later change of the reservation (a cancellation) finds
 * it handled. One autocommit statement instead of an inbox transaction.
 *
 * The saga's CommitReservation often runs at the same moment: `u` then waits
 * for its row lock and finds the reservation no longer active. The status is
 * read `for share` so that it too waits and reads the row as that commit left
 * it (a plain read would see the statement's snapshot, still active, and send
 * the event down the slow path for nothing).
 */
export async function commitAndRecordHandled(
  reader: Reader,
  reservationId: string,
  now: Date,
  inbox: InboxKey,
): Promise<boolean> {
  const rows = await reader.query<{ committed: boolean }>(
    `with u as (
       update ${T.reservations} set status = 'committed', settled_at = ? where id = ? and status = 'active' returning 1
     ),
     c as (
       select exists (select 1 from u)
         or coalesce((select status from ${T.reservations} where id = ? for share) = 'committed', false) as committed
     ),
     ${inboxInsert('catalog', 'i', '(select committed from c)')}
     select committed from c`,
    [now, reservationId, reservationId, ...inboxParams(inbox)],
  );
  return rows[0]?.committed === true;
}

/** Replaces a reservation's lines (an edited order's), each with whether it takes units from a level. */
export async function replaceReservationLines(
  em: EntityManager,
  id: string,
  lines: ReadonlyArray<LineQuantity & { deducted: boolean }>,
): Promise<void> {
  await em.execute(`delete from ${T.reservationLines} where reservation_id = ?`, [id]);
  if (!lines.length) return;
  await em.execute(
    `insert into ${T.reservationLines} (reservation_id, product_id, variation_id, quantity, deducted) values ${tuplePlaceholders(lines.length, 5)}`,
    lines.flatMap((l) => [id, l.productId, l.variationId, l.quantity, l.deducted]),
  );
}
