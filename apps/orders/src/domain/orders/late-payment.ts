import type { EntityManager } from '@mikro-orm/postgresql';
import { intoOutbox } from '@storefront/events';
import { findOrder, updateOrderFields, type OrderFieldChanges } from '../../persistence/orders.repository';
import type { Actor, OrdersDeps } from '../deps';
import { refundThroughGateway } from './gateway-refund';
import { recordActivity } from './lifecycle';
import type { Order } from './order-types';

/**
 * A payment that completes after its order was cancelled (a 3-D Secure step
 * approved late, a checkout racing an admin's cancel). The cancel already gave
 * back the stock and the coupon usage, so the order is not revived: the
 * payment is recorded on the cancelled order (paid_status `paid`, its
 * transaction id) and refunded in full through the gateway, outside the
 * transaction. No order_paid / order_refunded events: the money never counted
 * as a sale. Until the refund succeeds the order carries the meta entry
 * `refund_due` (state `due` | `refunding` | `failed`), which is what an admin
 * sees; the same paid result told again retries a failed refund.
 * docs/decisions.md "A payment for a cancelled order".
 */
export const REFUND_DUE_KEY = 'refund_due';

type RefundState = 'due' | 'refunding' | 'failed';
interface RefundDue {
  state: RefundState;
  transaction_id: string;
  reason: string;
  error?: string;
}

const REASON = 'The order was cancelled before its payment completed.';

export function refundDueOf(order: Order): RefundDue | undefined {
  const entry = order.metaData.find((m) => m.key === REFUND_DUE_KEY);
  if (!entry) return undefined;
  try {
    return JSON.parse(entry.valueJson) as RefundDue;
  } catch {
    return undefined;
  }
}

/** A paid result for this (locked) order is a late payment: it was cancelled while unpaid, or is one already. */
export function isLatePayment(order: Order): boolean {
  return order.status === 'cancelled' && (order.paidStatus === 'unpaid' || refundDueOf(order) !== undefined);
}

function withRefundDue(order: Order, due: RefundDue | undefined): OrderFieldChanges['metaData'] {
  const rest = order.metaData.filter((m) => m.key !== REFUND_DUE_KEY).map((m) => ({ key: m.key, valueJson: m.valueJson }));
  return due ? [...rest, { key: REFUND_DUE_KEY, valueJson: JSON.stringify(due) }] : rest;
}

export class LatePayments {
  constructor(private readonly deps: OrdersDeps) {}

  /** Inside the paid result's transaction: records the payment on the cancelled order, refund due. */
  async record(em: EntityManager, order: Order, changes: OrderFieldChanges, now: Date): Promise<void> {
    if (order.paidStatus !== 'unpaid') return; // told again: already recorded
    const transactionId = changes.transactionId ?? order.transactionId;
    await updateOrderFields(
      em,
      order.id,
      {
        ...changes,
        paidStatus: 'paid',
        datePaid: now,
        metaData: withRefundDue(order, { state: 'due', transaction_id: transactionId, reason: REASON }),
      },
      now,
    );
    recordActivity(intoOutbox(em), order, 'warning', `Order #${order.id} was paid after it was cancelled; the payment is refunded.`, {
      order_id: order.id,
      status: order.status,
    });
  }

  /**
   * Refunds a recorded late payment through the gateway (no transaction open
   * while payments works). Claimed first, so two deliveries of the same result
   * never refund twice. Returns the order as it then is.
   */
  async refund(orderId: number, actor: Actor): Promise<Order> {
    const claimed = await this.deps.db.em().transactional(async (em) => {
      const order = (await findOrder(em, orderId, true))!;
      const due = refundDueOf(order);
      if (!due || due.state === 'refunding' || order.paidStatus !== 'paid') return null;
      await updateOrderFields(em, order.id, { metaData: withRefundDue(order, { ...due, state: 'refunding', error: undefined }) }, this.deps.now());
      return { order, due };
    });
    if (!claimed) return (await findOrder(this.deps.db.em(), orderId))!;
    const { order, due } = claimed;
    let error: string | undefined;
    try {
      await refundThroughGateway(this.deps, order, order.total, due.reason, due.transaction_id);
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)) || 'refund failed';
    }
    return this.deps.db.em().transactional(async (em) => {
      const current = (await findOrder(em, orderId, true))!;
      const now = this.deps.now();
      if (error !== undefined) {
        await updateOrderFields(em, orderId, { metaData: withRefundDue(current, { ...due, state: 'failed', error: error.slice(0, 500) }) }, now);
        recordActivity(intoOutbox(em), current, 'error', `Order #${orderId}: refunding its late payment failed; an admin must refund it.`, {
          order_id: orderId,
          by_user_id: actor.userId,
        });
      } else {
        await updateOrderFields(em, orderId, { paidStatus: 'refunded', refundedTotal: current.total, metaData: withRefundDue(current, undefined) }, now);
        recordActivity(intoOutbox(em), current, 'success', `Order #${orderId}: its late payment was refunded.`, { order_id: orderId, by_user_id: actor.userId });
      }
      return (await findOrder(em, orderId))!;
    });
  }
}
