import { DomainError } from '@storefront/errors';
import { ORDER_STATUSES, PAID_STATUSES, type OrderStatus, type PaidStatus } from '../../persistence/order-records';

export { ORDER_STATUSES, PAID_STATUSES, type OrderStatus, type PaidStatus };

// The order state machine, table-driven, in this one file (contract "Order
// statuses"). Every change of an order's status goes through `planTransition`,
// which either names the transition (and what it implies: paid, refunded...)
// or throws the error of an illegal move. Nothing else in the service sets a
// status.

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/**
 * Why a transition happens; decides which table rows apply.
 * - `checkout`: the checkout promotes a draft (draft -> pending_payment).
 * - `payment`: a gateway outcome (paid / on_hold / failed).
 * - `admin`: an administrator sets the status (REST /order).
 * - `customer`: the customer cancels (me/orders/<id>/cancel).
 * - `refund`: money went back (paid order -> refunded).
 */
export type TransitionCause = 'checkout' | 'payment' | 'admin' | 'customer' | 'refund';

/** What a transition does beside the status (the service applies it and publishes its event). */
export type TransitionEffect = 'none' | 'placed' | 'paid' | 'failed' | 'cancelled' | 'refunded' | 'on_hold';

interface Row {
  from: readonly OrderStatus[];
  to: OrderStatus;
  causes: readonly TransitionCause[];
  /** unpaid: only while the order is unpaid; paid: only once paid; any. */
  paid: 'unpaid' | 'paid' | 'any';
  effect: TransitionEffect;
}

const UNPAID_OPEN = ['checkout_draft', 'pending_payment', 'on_hold', 'failed'] as const;

/**
 * Every legal transition. A paid transition lands on `processing` (something
 * ships) or `completed` (nothing does); which one is the caller's to choose
 * with `paidStatusFor`.
 */
export const TRANSITIONS: readonly Row[] = [
  // Checkout
  { from: ['checkout_draft'], to: 'pending_payment', causes: ['checkout', 'admin'], paid: 'unpaid', effect: 'placed' },
  { from: ['failed'], to: 'pending_payment', causes: ['checkout', 'admin'], paid: 'unpaid', effect: 'none' },
  { from: ['on_hold'], to: 'pending_payment', causes: ['admin'], paid: 'unpaid', effect: 'none' },
  // Payment outcomes (a gateway) and an admin marking an order paid (bacs, cod...)
  { from: UNPAID_OPEN, to: 'processing', causes: ['payment', 'admin'], paid: 'unpaid', effect: 'paid' },
  { from: UNPAID_OPEN, to: 'completed', causes: ['payment', 'admin'], paid: 'unpaid', effect: 'paid' },
  { from: ['checkout_draft', 'pending_payment', 'failed'], to: 'on_hold', causes: ['payment', 'admin'], paid: 'unpaid', effect: 'on_hold' },
  { from: ['checkout_draft', 'pending_payment', 'on_hold'], to: 'failed', causes: ['payment', 'admin'], paid: 'unpaid', effect: 'failed' },
  // Fulfilment of a paid order
  { from: ['processing'], to: 'completed', causes: ['admin'], paid: 'paid', effect: 'none' },
  { from: ['completed'], to: 'processing', causes: ['admin'], paid: 'paid', effect: 'none' },
  { from: ['processing'], to: 'on_hold', causes: ['admin'], paid: 'paid', effect: 'none' },
  { from: ['on_hold'], to: 'processing', causes: ['admin'], paid: 'paid', effect: 'none' },
  // Cancellation: customers within the cancellable set (checked separately), admins any open order
  { from: ['checkout_draft', 'pending_payment', 'on_hold', 'failed'], to: 'cancelled', causes: ['admin', 'customer'], paid: 'unpaid', effect: 'cancelled' },
  { from: ['processing', 'on_hold'], to: 'cancelled', causes: ['admin', 'customer'], paid: 'paid', effect: 'cancelled' },
  // Refunds of paid orders
  { from: ['processing', 'completed', 'on_hold'], to: 'refunded', causes: ['admin', 'refund'], paid: 'paid', effect: 'refunded' },
];

/** Statuses whose line items may still change (spec 3: "no longer editable" -> order-not-editable). */
export const EDITABLE_STATUSES: readonly OrderStatus[] = ['checkout_draft', 'pending_payment', 'on_hold', 'failed'];

/** The customer-cancellable set of the spec (default; the service config may extend it). */
export const DEFAULT_CANCELLABLE: readonly OrderStatus[] = ['pending_payment', 'on_hold'];

export interface TransitionPlan {
  from: OrderStatus;
  to: OrderStatus;
  effect: TransitionEffect;
}

export const invalidTransition = (from: OrderStatus, to: OrderStatus) =>
  new DomainError('shop_order_invalid_transition', 409, `An order cannot move from "${from}" to "${to}".`, {
    from,
    to,
  });

export const notCancellable = (status: OrderStatus) =>
  new DomainError('shop_order_not_cancellable', 409, `This order cannot be cancelled (status "${status}").`, {
    order_status: status,
  });

export const alreadyPaid = () => new DomainError('shop_order_already_paid', 409, 'This order has already been paid.');

export const notPayable = (status: OrderStatus) =>
  new DomainError('shop_order_not_payable', 409, `This order cannot be paid (status "${status}").`, { order_status: status });

export const notEditable = () => new DomainError('order-not-editable', 400, 'Order is not editable.');

export const invalidStatus = (status: string) =>
  new DomainError('rest_invalid_param', 400, `Invalid parameter(s): status`, {
    params: { status: `"${status}" is not one of ${ORDER_STATUSES.join(', ')}.` },
  });

function isPaid(paidStatus: PaidStatus): boolean {
  return paidStatus !== 'unpaid';
}

/**
 * The transition `from` -> `to` for `cause`, or the 409 of an illegal move.
 * Moving to the current status is not a transition (null: nothing to do).
 */
export function planTransition(
  order: { status: OrderStatus; paidStatus: PaidStatus },
  to: string,
  cause: TransitionCause,
): TransitionPlan | null {
  if (!isOrderStatus(to)) throw invalidStatus(to);
  const from = order.status;
  if (from === to) return null;
  const paid = isPaid(order.paidStatus);
  const row = TRANSITIONS.find(
    (r) =>
      r.to === to &&
      r.from.includes(from) &&
      r.causes.includes(cause) &&
      (r.paid === 'any' || (r.paid === 'paid') === paid) &&
      // A refunded (or partly refunded) order is not paid for refund purposes.
      !(r.effect === 'refunded' && order.paidStatus !== 'paid'),
  );
  if (!row) throw invalidTransition(from, to);
  return { from, to, effect: row.effect };
}

/** Where a paid order goes: `processing` when anything ships, else `completed`. */
export function paidStatusFor(shipsSomething: boolean): OrderStatus {
  return shipsSomething ? 'processing' : 'completed';
}

/** Customer cancel (spec 3): only within the cancellable set, else 409. */
export function planCustomerCancel(
  order: { status: OrderStatus; paidStatus: PaidStatus },
  cancellable: readonly OrderStatus[],
): TransitionPlan {
  if (!cancellable.includes(order.status)) throw notCancellable(order.status);
  try {
    const plan = planTransition(order, 'cancelled', 'customer');
    if (!plan) throw notCancellable(order.status);
    return plan;
  } catch (err) {
    if (DomainError.is(err) && err.code === 'shop_order_invalid_transition') throw notCancellable(order.status);
    throw err;
  }
}

export function isEditable(order: { status: OrderStatus; paidStatus: PaidStatus }): boolean {
  return EDITABLE_STATUSES.includes(order.status) && !isPaid(order.paidStatus);
}

/** An order needs payment while it is placed, open and unpaid (a checkout draft is paid by placing it). */
export function needsPayment(order: { status: OrderStatus; paidStatus: PaidStatus; total: number }): boolean {
  return (
    order.paidStatus === 'unpaid' &&
    order.total > 0 &&
    (['pending_payment', 'on_hold', 'failed'] as OrderStatus[]).includes(order.status)
  );
}

/** Parses the configured cancellable set ("pending_payment,on_hold"); unknown names are a config error. */
export function parseCancellable(list: string): OrderStatus[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !isOrderStatus(n));
  if (bad.length) throw new Error(`ORDER_CANCELLABLE_STATUSES: unknown status ${bad.join(', ')}`);
  return names as OrderStatus[];
}
