import { createHash } from 'node:crypto';
import type { OrdersDeps } from '../deps';
import { refundUnsupported } from '../errors';
import type { Order } from './order-types';

/**
 * A refund's idempotency key: the order, a digest of the payment's
 * transaction (ids can be long; the key stays well under payments' 255) and
 * what is refunded (`what`). docs/decisions.md "Refunds are idempotent".
 */
export function refundKey(orderId: number, transactionId: string, what: string): string {
  return `order-${orderId}-${createHash('sha256').update(transactionId).digest('hex').slice(0, 16)}-${what}`;
}

/**
 * Refunds `amount` of an order through the gateway that took the payment
 * (admin refunds and late payments alike); 422 when that gateway cannot. An
 * offline gateway's refund (cash, bank transfer) is recorded by payments as
 * paid back by hand; an order marked paid without any gateway has nothing to
 * call: the refund is the order's own record.
 * `idempotencyKey` names this refund: told again (a retry after a lost
 * answer or a crash), payments refunds nothing more.
 */
export async function refundThroughGateway(
  deps: Pick<OrdersDeps, 'payments'>,
  order: Order,
  refund: { amount: number; reason: string; idempotencyKey: string; transactionId?: string },
): Promise<void> {
  if (!order.paymentMethod || refund.amount <= 0) return;
  if (!deps.payments) throw refundUnsupported(order.paymentMethod);
  await deps.payments.refund({
    orderId: order.id,
    gatewayId: order.paymentMethod,
    transactionId: refund.transactionId ?? order.transactionId,
    amount: refund.amount,
    currency: order.currency,
    reason: refund.reason,
    idempotencyKey: refund.idempotencyKey,
  });
}
