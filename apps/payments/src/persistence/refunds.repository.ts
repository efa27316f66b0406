import type { EntityManager } from '@mikro-orm/postgresql';

export async function insertRefund(
  em: EntityManager,
  r: { id: string; orderId: number; gatewayId: string; transactionId: string; amountMinor: number; currency: string; reason: string },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into "payments"."refunds" ("id", "order_id", "gateway_id", "transaction_id", "amount_minor", "currency", "reason", "created_at")
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
    [r.id, r.orderId, r.gatewayId, r.transactionId, r.amountMinor, r.currency, r.reason, now],
  );
}
