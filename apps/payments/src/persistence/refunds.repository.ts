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

/** Stores a refund once: a twin with the same key (or id) that got here first stands. */
export async function insertRefund(em: EntityManager, r: RefundRecord, now: Date): Promise<void> {
  await em.execute(
    `insert into "payments"."refunds" ("id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency", "reason", "idempotency_key", "created_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    [r.id, r.orderId, r.gatewayId, r.transactionId, r.amountMinor, r.currency, r.reason, r.idempotencyKey, now],
  );
}

export async function findRefundByKey(em: EntityManager, key: string): Promise<Pick<RefundRecord, 'id' | 'orderId' | 'amountMinor'> | null> {
  const [row] = await em.execute<Array<{ id: string; order_id: string; amount_minor: string }>>(
    `select "id", "order_id", "amount_minor" from "payments"."refunds" where "idempotency_key" = ?`,
    [key],
  );
  return row ? { id: row.id, orderId: Number(row.order_id), amountMinor: Number(row.amount_minor) } : null;
}
