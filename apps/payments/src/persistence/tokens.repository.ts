import type { EntityManager } from '@mikro-orm/postgresql';
import type { CardSummary, StoredToken } from './token-records';

interface Row {
  id: number;
  customer_id: string;
  gateway_id: string;
  gateway_token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  card_behaviour: string;
  is_default: boolean;
  created_at: Date;
}

const toToken = (r: Row): StoredToken & { createdAt: Date } => ({
  id: r.id,
  customerId: Number(r.customer_id),
  gatewayId: r.gateway_id,
  gatewayToken: r.gateway_token,
  card: { brand: r.brand, last4: r.last4, expMonth: r.exp_month, expYear: r.exp_year, behaviour: r.card_behaviour },
  isDefault: r.is_default,
  createdAt: new Date(r.created_at),
});

export type TokenRecord = ReturnType<typeof toToken>;

export async function tokensOf(em: EntityManager, customerId: number): Promise<TokenRecord[]> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."tokens" where "customer_id" = ? order by "id"`,
    [customerId],
  );
  return rows.map(toToken);
}

/** A token of this customer (another customer's token reads as absent). */
export async function tokenOf(em: EntityManager, customerId: number, id: number, forUpdate = false): Promise<TokenRecord | undefined> {
  const rows = await em.execute<Row[]>(
    `select * from "payments"."tokens" where "id" = ? and "customer_id" = ?${forUpdate ? ' for update' : ''}`,
    [id, customerId],
  );
  return rows[0] && toToken(rows[0]);
}

/** Stores a token; the customer's first token becomes the default (one statement). */
export async function insertToken(
  em: EntityManager,
  customerId: number,
  gatewayId: string,
  gatewayToken: string,
  card: CardSummary,
  now: Date,
): Promise<TokenRecord> {
  const rows = await em.execute<Row[]>(
    `insert into "payments"."tokens" ("customer_id", "gateway_id", "gateway_token", "brand", "last4", "exp_month",
       "exp_year", "card_behaviour", "is_default", "created_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, not exists (select 1 from "payments"."tokens" where "customer_id" = ?), ?)
     returning *`,
    [customerId, gatewayId, gatewayToken, card.brand, card.last4, card.expMonth, card.expYear, card.behaviour, customerId, now],
  );
  return toToken(rows[0]);
}

export async function deleteToken(em: EntityManager, customerId: number, id: number): Promise<void> {
  await em.execute(`delete from "payments"."tokens" where "id" = ? and "customer_id" = ?`, [id, customerId]);
  // Keep one default while the customer has tokens.
  await em.execute(
    `update "payments"."tokens" set "is_default" = true where "id" = (
       select "id" from "payments"."tokens" where "customer_id" = ? order by "id" desc limit 1)
     and not exists (select 1 from "payments"."tokens" where "customer_id" = ? and "is_default")`,
    [customerId, customerId],
  );
}

export async function makeDefault(em: EntityManager, customerId: number, id: number): Promise<void> {
  await em.execute(`update "payments"."tokens" set "is_default" = ("id" = ?) where "customer_id" = ?`, [id, customerId]);
}
