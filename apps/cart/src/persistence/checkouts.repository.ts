import { inboxInsert, inboxParams, type InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import type { CheckoutPlan, CheckoutRecord, CheckoutStatus } from './checkout-record';

const T = { checkouts: '"cart"."checkouts"', steps: '"cart"."checkout_steps"' };

interface Row {
  id: string;
  checkout_key: string;
  kind: string;
  cart_id: string | null;
  cart_revision: number;
  customer_id: number;
  request_hash: string;
  status: string;
  step: string;
  payment_method: string;
  order_id: number;
  order_key: string;
  plan: Record<string, unknown>;
  outcome: Record<string, unknown> | null;
  created_at: Date;
}

function toRecord(r: Row | undefined): CheckoutRecord | null {
  if (!r) return null;
  return {
    id: r.id,
    checkoutKey: r.checkout_key,
    kind: r.kind as CheckoutRecord['kind'],
    cartId: r.cart_id,
    cartRevision: r.cart_revision,
    customerId: r.customer_id,
    requestHash: r.request_hash,
    status: r.status as CheckoutStatus,
    step: r.step,
    paymentMethod: r.payment_method,
    orderId: r.order_id,
    orderKey: r.order_key,
    plan: r.plan as unknown as CheckoutPlan,
    outcome: r.outcome as CheckoutRecord['outcome'],
    createdAt: new Date(r.created_at),
  };
}

/** The checkout of a key (every placement looks first: a prepared read on the Reader). */
export async function findCheckoutByKey(reader: Reader, key: string): Promise<CheckoutRecord | null> {
  return toRecord((await reader.query<Row>(`select * from ${T.checkouts} where checkout_key = ?`, [key]))[0]);
}

/** The next log entry of a saga, as a statement reading the saga id from the CTE `saga`. */
const APPEND_STEP = `insert into ${T.steps} (checkout_id, seq, step, note, at)
  select saga.id, (select coalesce(max(seq), 0) + 1 from ${T.steps} where checkout_id = saga.id), ?, ?, ? from saga`;

// The saga's own statements (insert, steps, finish) are single autocommit
// statements run on every placement: they go through the Reader's prepared
// statements, so neither side formats or plans them again per call.

/** Inserts the saga row with its first log entry (one statement); false when the key exists (a twin request). */
export async function insertCheckout(reader: Reader, c: CheckoutRecord, lockedUntil: Date, now: Date): Promise<boolean> {
  const rows = await reader.query(
    `with saga as (
       insert into ${T.checkouts} (id, checkout_key, kind, cart_id, cart_revision, customer_id, request_hash, status, step,
         payment_method, order_id, order_key, plan, outcome, locked_until, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, null, ?, ?, ?) on conflict do nothing returning id)
     ${APPEND_STEP} returning checkout_id`,
    [c.id, c.checkoutKey, c.kind, c.cartId, c.cartRevision, c.customerId, c.requestHash, c.status, c.step, c.paymentMethod,
      c.orderId, c.orderKey, JSON.stringify(c.plan), lockedUntil, now, now, c.step, '', now],
  );
  return rows.length > 0;
}

/** Records the next step in the saga log before it runs (and whatever the saga learned so far), in one statement. */
export async function recordStep(
  reader: Reader,
  id: string,
  step: string,
  now: Date,
  changes: { orderId?: number; orderKey?: string; plan?: CheckoutPlan; note?: string; releaseLease?: boolean } = {},
): Promise<void> {
  await reader.query(
    `with saga as (
       update ${T.checkouts} set step = ?, updated_at = ?,
         order_id = coalesce(?, order_id), order_key = coalesce(?, order_key), plan = coalesce(?::jsonb, plan)
         ${changes.releaseLease ? ', locked_until = null' : ''}
       where id = ? returning id)
     ${APPEND_STEP}`,
    [step, now, changes.orderId ?? null, changes.orderKey ?? null, changes.plan ? JSON.stringify(changes.plan) : null, id,
      step, (changes.note ?? '').slice(0, 500), now],
  );
}

/**
 * Closes a saga with its outcome and, in the same statement, its cart:
 * `clear` empties it unless it changed since the checkout began (its
 * revision moved); `bump` gives it a new revision (and lets go of the draft
 * order the failed attempt used).
 */
export async function finishCheckout(
  reader: Reader,
  id: string,
  status: CheckoutStatus,
  outcome: Record<string, unknown>,
  now: Date,
  cart?: { id: string; revision: number; change: 'clear' | 'bump'; orderId: number },
): Promise<void> {
  const ctes = [
    `saga as (update ${T.checkouts} set status = ?, step = 'done', outcome = ?::jsonb, locked_until = null, updated_at = ? where id = ? returning id)`,
    `logged as (${APPEND_STEP})`,
  ];
  const params: unknown[] = [status, JSON.stringify(outcome), now, id, `done:${status}`, '', now];
  let main = 'select 1';
  if (cart?.change === 'clear') {
    ctes.push(`emptied as (update "cart"."carts" set coupons = '[]', draft_order_id = 0, updated_at = ? where id = ? and revision = ? returning id)`);
    params.push(now, cart.id, cart.revision);
    main = `delete from "cart"."cart_lines" where cart_id in (select id from emptied)`;
  } else if (cart?.change === 'bump') {
    // A draft order (payment intent) this attempt promoted and failed is no longer the cart's draft.
    main = `update "cart"."carts" set updated_at = ?, revision = revision + 1,
      draft_order_id = case when draft_order_id = ? then 0 else draft_order_id end where id = ?`;
    params.push(now, cart.orderId, cart.id);
  }
  await reader.query(`with ${ctes.join(', ')} ${main}`, params);
}

/** Moves an expired idempotency key aside so the same key may start a new checkout. */
export async function retireCheckoutKey(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update ${T.checkouts} set checkout_key = left(checkout_key, 27) || ':' || id where id = ?`, [id]);
}

/** The placement of a cart revision, running, awaiting its action step or done (at most one: checkouts_placement_of_cart). */
export async function findPlacementOfCart(reader: Reader, cartId: string, revision: number): Promise<CheckoutRecord | null> {
  return toRecord(
    (
      await reader.query<Row>(
        `select * from ${T.checkouts} where cart_id = ? and cart_revision = ? and kind = 'place' and status in ('open', 'action', 'succeeded')`,
        [cartId, revision],
      )
    )[0],
  );
}

/** Leases one open saga at `step` that nobody holds (a retry settling it); false when someone does, it moved on or finished. */
export async function leaseCheckout(em: EntityManager, id: string, step: string, now: Date, leaseUntil: Date): Promise<boolean> {
  const rows = await em.execute(
    `update ${T.checkouts} set locked_until = ? where id = ? and status = 'open' and step = ? and (locked_until is null or locked_until < ?) returning id`,
    [leaseUntil, id, step, now],
  );
  return rows.length > 0;
}

/** Open sagas nobody holds (their request died), leased to this recovery run. */
export async function leaseOpenCheckouts(em: EntityManager, now: Date, staleBefore: Date, leaseUntil: Date, limit: number) {
  const rows = await em.execute<Row[]>(
    `select * from ${T.checkouts} where status = 'open' and updated_at < ? and (locked_until is null or locked_until < ?)
     order by updated_at limit ? for update skip locked`,
    [staleBefore, now, limit],
  );
  if (rows.length) {
    await em.execute(`update ${T.checkouts} set locked_until = ? where id in (?)`, [leaseUntil, rows.map((r) => r.id)]);
  }
  return rows.map((r) => toRecord(r)!);
}

export async function findCheckoutByOrder(em: EntityManager, orderId: number): Promise<CheckoutRecord | null> {
  return toRecord((await em.execute<Row[]>(`select * from ${T.checkouts} where order_id = ? and kind = 'place' order by created_at desc limit 1`, [orderId]))[0]);
}

/** Remembers the draft order a cart was snapshotted onto (payment intents). */
export async function touchCheckoutCart(em: EntityManager, cartId: string, draftOrderId: number, now: Date): Promise<void> {
  await em.execute(`update "cart"."carts" set draft_order_id = ?, updated_at = ? where id = ?`, [draftOrderId, now, cartId]);
}

/**
 * order_paid with no transaction: whether a place checkout of the order still
 * waits on its action step. When none does, the same statement records the
 * event (`consumer`, `eventId`) in the inbox: there is nothing to complete, and
 * a redelivery finds the event handled. When one does, nothing is recorded
 * (the consumer's transaction completes it).
 */
export async function recordIfNoActionCheckout(reader: Reader, orderId: number, inbox: InboxKey): Promise<boolean> {
  const rows = await reader.query<{ waiting: boolean }>(
    `with waiting as (
       select 1 from ${T.checkouts} where order_id = ? and status = 'action' limit 1
     ),
     ${inboxInsert('cart', 'handled', 'not exists (select 1 from waiting)')}
     select exists (select 1 from waiting) as waiting`,
    [orderId, ...inboxParams(inbox)],
  );
  return rows[0]?.waiting === false;
}

/**
 * The checkout (placement or pay-order) of an order still waiting on its action step, closed as
 * failed with `outcome` (the answer a retry under the same key replays); null
 * when none waits.
 */
export async function failActionCheckout(em: EntityManager, orderId: number, outcome: Record<string, unknown>, now: Date) {
  const rows = await em.execute<{ cart_id: string | null; cart_revision: number }[]>(
    `update "cart"."checkouts" set status = 'failed', step = 'done', outcome = ?::jsonb, updated_at = ?
     where order_id = ? and status = 'action' returning cart_id, cart_revision`,
    [JSON.stringify(outcome), now, orderId],
  );
  return rows[0] ? { cartId: rows[0].cart_id, cartRevision: rows[0].cart_revision } : null;
}

/** The checkout (placement or pay-order) of an order still waiting on its action step, marked succeeded; null otherwise. */
export async function completeActionCheckout(em: EntityManager, orderId: number, now: Date) {
  const rows = await em.execute<{ cart_id: string | null; cart_revision: number }[]>(
    `update "cart"."checkouts" set status = 'succeeded', updated_at = ?
     where order_id = ? and status = 'action' returning cart_id, cart_revision`,
    [now, orderId],
  );
  return rows[0] ? { cartId: rows[0].cart_id, cartRevision: rows[0].cart_revision } : null;
}
