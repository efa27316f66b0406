import { invalidParams } from '@storefront/errors';
import type { CallerContext } from '@storefront/grpc-client';
import { attemptsOfOrder, type AttemptRecord } from '../../persistence/attempts.repository';
import type { PaymentsDeps } from '../deps';
import { orderNotFound } from '../errors';
import type { GatewayCatalog } from '../gateways/gateway-catalog';
import { amountToMinor, minorToAmount } from './amounts';

export interface PaymentRecordView {
  orderId: number;
  status: string;
  paidStatus: string;
  paymentMethod: string;
  transactionId: string;
  amount: string;
  currency: string;
  gatewayId: string;
  gatewayTitle: string;
  attempts: AttemptRecord[];
}

/**
 * The order-scoped payment record (`GET /payment`, `GET /payment/<id>`): the
 * order comes from orders' GetOrderForPayment, which decides who may see it
 * (owner, pay_for_order / manage_options, or the matching order key).
 */
export class PaymentRecords {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly catalog: GatewayCatalog,
  ) {}

  async get(orderId: number, orderKey: string, caller: CallerContext): Promise<PaymentRecordView> {
    if (!Number.isSafeInteger(orderId) || orderId < 1) throw invalidParams({ order_id: 'order_id must be a positive integer.' });
    if (!this.deps.orders) throw orderNotFound();
    const order = await this.deps.orders.getOrderForPayment(orderId, orderKey.slice(0, 200), caller);
    const attempts = await attemptsOfOrder(this.deps.db.em(), order.id);
    const gatewayId = order.paymentMethod || attempts[0]?.gatewayId || '';
    const view = (await this.catalog.views()).find((v) => v.gateway.id === gatewayId);
    let amount = order.total;
    try {
      amount = minorToAmount(amountToMinor(order.total || '0', order.currency || 'USD'), order.currency || 'USD');
    } catch {
      // keep the order's own text
    }
    return {
      orderId: order.id,
      status: order.status,
      paidStatus: order.paidStatus,
      paymentMethod: order.paymentMethod,
      transactionId: order.transactionId || attempts.find((a) => a.transactionId)?.transactionId || '',
      amount,
      currency: order.currency,
      gatewayId,
      gatewayTitle: order.paymentMethodTitle || view?.title || '',
      attempts,
    };
  }
}
