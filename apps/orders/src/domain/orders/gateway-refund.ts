import type { OrdersDeps } from '../deps';
import { refundUnsupported } from '../errors';
import type { Order } from './order-types';

/**
 * Refunds `amount` of an order through the gateway that took the payment
 * (admin refunds and late payments alike); 422 when that gateway cannot.
 * `idempotencyKey` names this refund: told again (a retry after a lost
 * answer or a crash), payments refunds nothing more.
 */
export async function refundThroughGateway(
  deps: Pick<OrdersDeps, 'payments'>,
  order: Order,
  refund: { amount: number; reason: string; idempotencyKey: string; transactionId?: string },
): Promise<void> {
  if (!deps.payments || !order.paymentMethod) throw refundUnsupported(order.paymentMethod);
  if (refund.amount <= 0) return;
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
