import type { OrdersDeps } from '../deps';
import { refundUnsupported } from '../errors';
import type { Order } from './order-types';

/**
 * Refunds `amount` of an order through the gateway that took the payment
 * (admin refunds and late payments alike); 422 when that gateway cannot.
 */
export async function refundThroughGateway(
  deps: Pick<OrdersDeps, 'payments'>,
  order: Order,
  amount: number,
  reason: string,
  transactionId = order.transactionId,
): Promise<void> {
  if (!deps.payments || !order.paymentMethod) throw refundUnsupported(order.paymentMethod);
  if (amount <= 0) return;
  await deps.payments.refund({ orderId: order.id, gatewayId: order.paymentMethod, transactionId, amount, currency: order.currency, reason });
}
