import type { EntityManager } from '@mikro-orm/postgresql';

/** A payment attempt row (never card data). */
export interface AttemptRecord {
  id: string;
  orderId: number;
  gatewayId: string;
  amountMinor: number;
  currency: string;
  outcome: string;
  transactionId: string;
  declineReason: string;
  message: string;
  idempotencyKey: string | null;
  fingerprint: string;
  customerId: number;
  clientIp: string;
  intentId: string;
  redirectUrl: string;
  clientSecret: string;
  createdAt: Date;
}

interface Row {
  id: string;
  order_id: string;
  gateway_id: string;
  amount_minor: string;
  currency: string;
  outcome: string;
  transaction_id: string;
  decline_reason: string;
  message: string;
  idempotency_key: string | null;
  fingerprint: string;
  customer_id: string;
  client_ip: string;
  intent_id: string;
  redirect_url: string;
  client_secret: string;
  created_at: Date;
}

const toRecord = (r: Row): AttemptRecord => ({
  id: r.id,
  orderId: Number(r.order_id),
  gatewayId: r.gateway_id,
  amountMinor: Number(r.amount_minor),
  currency: r.currency,
  outcome: r.outcome,
  transactionId: r.transaction_id,
  declineReason: r.decline_reason,
  message: r.message,
  idempotencyKey: r.idempotency_key,
  fingerprint: r.fingerprint,
  customerId: Number(r.customer_id),
  clientIp: r.client_ip,
  intentId: r.intent_id,
  redirectUrl: r.redirect_url,
  clientSecret: r.client_secret,
  createdAt: new Date(r.created_at),
});

/**
 * Inserts a `processing` attempt; `claimed` false when its idempotency key
 * already exists. With `failureWindow`, the same statement (one round trip) also reads the
 * failures of that IP's current window (as currentFailures does), which the
 * card-testing defence decides on once the key is claimed.
 */
export async function insertAttemptReadingFailures(
  em: EntityManager,
  a: AttemptRecord,
  failureWindow?: { clientIp: string; windowSeconds: number },
): Promise<{ claimed: boolean; failures: number; resetsIn: number }> {
  const insert = `insert into "payments"."payment_attempts" ("id", "order_id", "gateway_id", "amount_minor", "currency", "outcome",
       "transaction_id", "decline_reason", "message", "redirect_url",
       "idempotency_key", "fingerprint", "customer_id", "client_ip", "created_at", "updated_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict ("idempotency_key") do nothing returning "id"`;
  const values = [a.id, a.orderId, a.gatewayId, a.amountMinor, a.currency, a.outcome, a.transactionId, a.declineReason, a.message,
    a.redirectUrl, a.idempotencyKey, a.fingerprint, a.customerId, a.clientIp, a.createdAt, a.createdAt];
  if (!failureWindow) {
    const rows = await em.execute<{ id: string }[]>(insert, values);
    return { claimed: rows.length === 1, failures: 0, resetsIn: 0 };
  }
  const { clientIp, windowSeconds } = failureWindow;
  const [row] = await em.execute<{ claimed: boolean; failures: number | null; resets_in: string | null }[]>(
    `with claimed as (${insert})
     select exists (select 1 from claimed) as "claimed", w."failures",
       extract(epoch from (w."window_start" + make_interval(secs => ?) - now())) as "resets_in"
     from (select 1) as one
     left join "payments"."failure_windows" w on w."client_ip" = ? and w."window_start" > now() - make_interval(secs => ?)`,
    [...values, windowSeconds, clientIp, windowSeconds],
  );
  return { claimed: row.claimed === true, failures: Number(row.failures ?? 0), resetsIn: row.failures == null ? 0 : Number(row.resets_in) };
}

export async function finishAttempt(
  em: EntityManager,
  id: string,
  r: Pick<AttemptRecord, 'outcome' | 'transactionId' | 'declineReason' | 'message' | 'intentId' | 'redirectUrl' | 'clientSecret'>,
  now: Date,
): Promise<void> {
  await em.execute(
    `update "payments"."payment_attempts" set "outcome" = ?, "transaction_id" = ?, "decline_reason" = ?, "message" = ?,
       "intent_id" = ?, "redirect_url" = ?, "client_secret" = ?, "updated_at" = ? where "id" = ?`,
    [r.outcome, r.transactionId, r.declineReason, r.message, r.intentId, r.redirectUrl, r.clientSecret, now, id],
  );
}

export async function deleteAttempt(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from "payments"."payment_attempts" where "id" = ?`, [id]);
}

export async function attemptByKey(em: EntityManager, key: string): Promise<AttemptRecord | undefined> {
  const rows = await em.execute<Row[]>(`select * from "payments"."payment_attempts" where "idempotency_key" = ?`, [key]);
  return rows[0] && toRecord(rows[0]);
}

export async function attemptById(em: EntityManager, id: string): Promise<AttemptRecord | undefined> {
  const rows = await em.execute<Row[]>(`select * from "payments"."payment_attempts" where "id" = ?`, [id]);
  return rows[0] && toRecord(rows[0]);
}

/** The advisory-lock class of "charging order N" (the second key is the order id). */
const ORDER_LOCK_CLASS = 7301;

export async function paidAttemptOfOrder(em: EntityManager, orderId: number): Promise<AttemptRecord | undefined> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."payment_attempts" where "order_id" = ? and "outcome" = 'paid'
     order by "created_at" asc limit 1`,
    [orderId],
  );
  return rows[0] && toRecord(rows[0]);
}

/**
 * Serializes the decisions to charge one order (in the caller's transaction),
 * then tells whether another attempt of it is paid, or still processing since
 * `runningSince` (a charge in flight); null when neither.
 */
export async function otherPaymentOfOrder(em: EntityManager, orderId: number, attemptId: string, runningSince: Date): Promise<'paid' | 'processing' | null> {
  await em.execute(`select pg_advisory_xact_lock(${ORDER_LOCK_CLASS}, (? % 2147483647)::int)`, [orderId]);
  const rows = await em.execute<Row[]>(
    `select "outcome" from "payments"."payment_attempts"
     where "order_id" = ? and "id" <> ? and ("outcome" = 'paid' or ("outcome" = 'processing' and "created_at" > ?))
     order by ("outcome" = 'paid') desc limit 1`,
    [orderId, attemptId, runningSince],
  );
  return rows[0] ? (String(rows[0].outcome) as 'paid' | 'processing') : null;
}

export async function attemptsOfOrder(em: EntityManager, orderId: number): Promise<AttemptRecord[]> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."payment_attempts" where "order_id" = ? and "outcome" <> 'processing'
     order by "created_at" desc, "id" desc limit 50`,
    [orderId],
  );
  return rows.map(toRecord);
}
