import type { EntityManager } from '@mikro-orm/postgresql';
import type { CardSummary } from './token-records';

export interface IntentRecord {
  id: string;
  kind: 'payment' | 'setup';
  gatewayId: string;
  orderId: number;
  attemptId: string;
  customerId: number;
  amountMinor: number;
  currency: string;
  status: string;
  clientSecret: string;
  card?: CardSummary;
  returnUrl: string;
  expiresAt: Date;
  /** A setup intent's saved token, once it made one. */
  tokenId?: number;
}

interface Row {
  id: string;
  kind: 'payment' | 'setup';
  gateway_id: string;
  order_id: string;
  attempt_id: string;
  customer_id: string;
  amount_minor: string;
  currency: string;
  status: string;
  client_secret: string;
  card_brand: string;
  card_last4: string;
  exp_month: number;
  exp_year: number;
  card_behaviour: string;
  return_url: string;
  expires_at: Date;
  token_id: string | null;
}

const toRecord = (r: Row): IntentRecord => ({
  id: r.id,
  kind: r.kind,
  gatewayId: r.gateway_id,
  orderId: Number(r.order_id),
  attemptId: r.attempt_id,
  customerId: Number(r.customer_id),
  amountMinor: Number(r.amount_minor),
  currency: r.currency,
  status: r.status,
  clientSecret: r.client_secret,
  card: r.card_behaviour
    ? { brand: r.card_brand, last4: r.card_last4, expMonth: r.exp_month, expYear: r.exp_year, behaviour: r.card_behaviour }
    : undefined,
  returnUrl: r.return_url,
  expiresAt: new Date(r.expires_at),
  ...(r.token_id ? { tokenId: Number(r.token_id) } : {}),
});

/** Records the token a setup intent made; false when it already made one (a concurrent request). */
export async function claimSetupIntentToken(em: EntityManager, id: string, tokenId: number): Promise<boolean> {
  const rows = await em.execute(`update "payments"."intents" set "token_id" = ? where "id" = ? and "token_id" is null returning "id"`, [tokenId, id]);
  return rows.length > 0;
}

export async function insertIntent(em: EntityManager, i: IntentRecord, now: Date): Promise<void> {
  await em.execute(
    `insert into "payments"."intents" ("id", "kind", "gateway_id", "order_id", "attempt_id", "customer_id", "amount_minor",
       "currency", "status", "client_secret", "card_brand", "card_last4", "exp_month", "exp_year", "card_behaviour",
       "return_url", "expires_at", "created_at", "updated_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      i.id, i.kind, i.gatewayId, i.orderId, i.attemptId, i.customerId, i.amountMinor, i.currency, i.status, i.clientSecret,
      i.card?.brand ?? '', i.card?.last4 ?? '', i.card?.expMonth ?? 0, i.card?.expYear ?? 0, i.card?.behaviour ?? '',
      i.returnUrl, i.expiresAt, now, now,
    ],
  );
}

export async function findIntent(em: EntityManager, id: string, forUpdate = false): Promise<IntentRecord | undefined> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."intents" where "id" = ?${forUpdate ? ' for update' : ''}`,
    [id],
  );
  return rows[0] && toRecord(rows[0]);
}

export async function setIntentStatus(em: EntityManager, id: string, status: string, now: Date, card?: CardSummary): Promise<void> {
  if (card) {
    await em.execute(
      `update "payments"."intents" set "status" = ?, "card_brand" = ?, "card_last4" = ?, "exp_month" = ?, "exp_year" = ?,
         "card_behaviour" = ?, "updated_at" = ? where "id" = ?`,
      [status, card.brand, card.last4, card.expMonth, card.expYear, card.behaviour, now, id],
    );
    return;
  }
  await em.execute(`update "payments"."intents" set "status" = ?, "updated_at" = ? where "id" = ?`, [status, now, id]);
}

/**
 * Claims up to `limit` payment intents that waited past their expiry (or
 * whose expiry is not yet recorded at orders), skipping rows another replica holds.
 */
export async function claimExpiredIntents(em: EntityManager, now: Date, limit: number): Promise<IntentRecord[]> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."intents"
     where "kind" = 'payment' and (("status" = 'requires_action' and "expires_at" < ?) or "status" = 'expiring')
     order by "expires_at" limit ? for update skip locked`,
    [now, limit],
  );
  return rows.map(toRecord);
}
