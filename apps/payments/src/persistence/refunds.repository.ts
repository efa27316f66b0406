import type { EntityManager } from '@mikro-orm/postgresql';

export interface RefundRecord {
  id: string;
  orderId: number;
  gatewayId: string;
  transactionId: string;
  amountMinor: number;
  currency: string;
  reason: string;
  /** null: a refund without a key. */
  idempotencyKey: string | null;
}

/** What a replay compares with the request. */
export type StoredRefund = Pick<RefundRecord, 'id' | 'orderId' | 'gatewayId' | 'transactionId' | 'amountMinor' | 'currency'>;

const STORED = `"id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency"`;
type StoredRow = { id: string; order_id: string; gateway_id: string; transaction_id: string; amount_minor: string; currency: string };
const stored = (r: StoredRow): StoredRefund => ({
  id: r.id,
  orderId: Number(r.order_id),
  gatewayId: r.gateway_id,
  transactionId: r.transaction_id,
  amountMinor: Number(r.amount_minor),
  currency: r.currency,
});

/**
 * Stores a refund; false when a twin with the same key got there first (its
 * row stands). Any unique index: twins of a processor that derives the refund
 * id from the key (test_card) also meet on the primary key, which a conflict
 * target on the key alone would let raise.
 */
export async function insertRefund(em: EntityManager, r: RefundRecord, now: Date): Promise<boolean> {
  const rows = await em.execute(
    `insert into "payments"."refunds" ("id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency", "reason", "idempotency_key", "created_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning "id"`,
    [r.id, r.orderId, r.gatewayId, r.transactionId, r.amountMinor, r.currency, r.reason, r.idempotencyKey, now],
  );
  return rows.length > 0;
}

export async function findRefundByKey(em: EntityManager, key: string): Promise<StoredRefund | null> {
  const [row] = await em.execute<StoredRow[]>(`select ${STORED} from "payments"."refunds" where "idempotency_key" = ?`, [key]);
  return row ? stored(row) : null;
}

/**
 * Gives `key` to a refund of the same payment and amount made without one
 * (by a version before refunds had keys) and returns it: the keyed retry of
 * that very refund finds it instead of paying back again.
 */
export async function adoptUnkeyedRefund(em: EntityManager, key: string, r: Omit<StoredRefund, 'id'>): Promise<StoredRefund | null> {
  const [row] = await em.execute<StoredRow[]>(
    `update "payments"."refunds" set "idempotency_key" = ?
      where "id" = (select "id" from "payments"."refunds"
                     where "idempotency_key" is null and "order_id" = ? and "gateway_id" = ? and "transaction_id" = ? and "amount_minor" = ? and "currency" = ?
                     order by "created_at" limit 1 for update skip locked)
      returning ${STORED}`,
    [key, r.orderId, r.gatewayId, r.transactionId, r.amountMinor, r.currency],
  );
  return row ? stored(row) : null;
}
