import type { EntityManager } from '@mikro-orm/postgresql';
import { intoOutbox } from '@storefront/events';
import { DomainError } from '@storefront/errors';
import { findOrder, lateRefundCandidates, updateOrderFields, type OrderFieldChanges } from '../../persistence/orders.repository';
import { SYSTEM, type Actor, type OrdersDeps } from '../deps';
import { refundKey, refundThroughGateway } from './gateway-refund';
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
 * sees; the same paid result told again retries a failed refund, and the
 * retry job (`resumeStuck`) finishes a refund a stopped process left `due` or
 * `refunding`, and retries one that failed only because payments could not be
 * reached. The refund is keyed by order and transaction, so however often it
 * is tried, the money goes back once. Entries from before refunds had keys
 * (no `since`) stay with an admin. docs/decisions.md "A payment for a
 * cancelled order".
 */
export const REFUND_DUE_KEY = 'refund_due';

type RefundState = 'due' | 'refunding' | 'failed';
interface RefundDue {
  state: RefundState;
  transaction_id: string;
  reason: string;
  error?: string;
  /** When the state was set (ISO 8601). */
  since?: string;
  /** A failure that may pass (payments unreachable or failing): the job tries again. */
  retryable?: boolean;
  /** Failed tries so far. */
  failures?: number;
}

const REASON = 'The order was cancelled before its payment completed.';
/** Failed tries after which the job leaves the refund to an admin. */
export const LATE_REFUND_MAX_FAILURES = 10;

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

/** Answers that may pass by themselves (payments down or busy, a timeout); other 4xx (no transaction, a gateway without refunds) do not. */
const PASSING_STATUSES = new Set([408, 409, 429]);
const isRetryable = (err: unknown) => !(DomainError.is(err) && err.status < 500 && !PASSING_STATUSES.has(err.status));

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
        metaData: withRefundDue(order, { state: 'due', transaction_id: transactionId, reason: REASON, since: now.toISOString() }),
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
   * never run it side by side. Returns the order as it then is.
   */
  async refund(orderId: number, actor: Actor): Promise<Order> {
    return (await this.settle(orderId, actor)) ?? (await findOrder(this.deps.db.em(), orderId))!;
  }

  /**
   * The retry job: refunds late payments a stopped process left `due` or
   * `refunding` for `staleMs`, and retryable failures after a wait that
   * doubles with each failure. Returns how many were refunded.
   */
  async resumeStuck(staleMs: number): Promise<number> {
    let refunded = 0;
    const before = new Date(this.deps.now().getTime() - staleMs);
    for (const id of await lateRefundCandidates(this.deps.db.em(), before)) {
      const order = await this.settle(id, SYSTEM, staleMs);
      if (order?.paidStatus === 'refunded') refunded++;
    }
    return refunded;
  }

  /** null: nothing to do (no refund due, or it is someone else's to finish). */
  private async settle(orderId: number, actor: Actor, resumeAfterMs?: number): Promise<Order | null> {
    const now = this.deps.now();
    const since = now.toISOString();
    const claimed = await this.deps.db.em().transactional(async (em) => {
      const order = await findOrder(em, orderId, true);
      const due = order && refundDueOf(order);
      if (!order || !due || order.paidStatus !== 'paid') return null;
      if (resumeAfterMs === undefined ? due.state === 'refunding' : !resumable(due, now, resumeAfterMs)) return null;
      await updateOrderFields(em, order.id, { metaData: withRefundDue(order, { ...due, state: 'refunding', error: undefined, retryable: undefined, since }) }, now);
      return { order, due };
    });
    if (!claimed) return null;
    const { order, due } = claimed;
    let failure: { message: string; retryable: boolean } | undefined;
    try {
      const idempotencyKey = refundKey(orderId, due.transaction_id, 'late-payment');
      await refundThroughGateway(this.deps, order, { amount: order.total, reason: due.reason, idempotencyKey, transactionId: due.transaction_id });
    } catch (err) {
      failure = { message: (err instanceof Error ? err.message : String(err)) || 'refund failed', retryable: isRetryable(err) };
    }
    return this.deps.db.em().transactional(async (em) => {
      const current = (await findOrder(em, orderId, true))!;
      // Taken over meanwhile (this run outlived the stale time) or finished by the one that took it: theirs to record.
      const held = refundDueOf(current);
      if (current.paidStatus !== 'paid' || held?.state !== 'refunding' || held.since !== since) return current;
      const at = this.deps.now();
      if (failure) {
        const failures = (due.failures ?? 0) + 1;
        const retried = failure.retryable && failures < LATE_REFUND_MAX_FAILURES;
        const failed: RefundDue = { ...due, state: 'failed', error: failure.message.slice(0, 500), retryable: retried, failures, since: at.toISOString() };
        await updateOrderFields(em, orderId, { metaData: withRefundDue(current, failed) }, at);
        // Said once: the first failure the job will retry, or the one that needs an admin.
        if (!retried || failures === 1) {
          const message = retried
            ? `Order #${orderId}: refunding its late payment failed; it is retried automatically.`
            : `Order #${orderId}: refunding its late payment failed; an admin must refund it.`;
          recordActivity(intoOutbox(em), current, retried ? 'warning' : 'error', message, { order_id: orderId });
        }
      } else {
        await updateOrderFields(em, orderId, { paidStatus: 'refunded', refundedTotal: current.total, metaData: withRefundDue(current, undefined) }, at);
        recordActivity(intoOutbox(em), current, 'success', `Order #${orderId}: its late payment was refunded.`, { order_id: orderId });
      }
      return (await findOrder(em, orderId))!;
    });
  }
}

/**
 * Whether the job takes this refund over. Entries without `since` were
 * written before refunds had keys: one may have reached the gateway without
 * a key, so they stay with an admin.
 */
function resumable(due: RefundDue, now: Date, staleMs: number): boolean {
  if (!due.since) return false;
  const waited = now.getTime() - Date.parse(due.since);
  if (due.state === 'due' || due.state === 'refunding') return waited >= staleMs;
  return due.state === 'failed' && due.retryable === true && waited >= staleMs * 2 ** Math.min(Math.max((due.failures ?? 1) - 1, 0), 5);
}
