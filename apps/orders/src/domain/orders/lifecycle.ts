import type { EntityManager } from '@mikro-orm/postgresql';
import { intoOutbox, type EventSink } from '@storefront/events';
import { activityLogged } from '@storefront/domain-events';
import { OrderEvents } from '@storefront/domain-events/orders';
import { fromMinor } from '@storefront/money';
import type { orders } from '@storefront/proto/orders';
import { updateOrderWithHistory, type OrderFieldChanges } from '../../persistence/orders.repository';
import type { StatusChange } from '../../persistence/order-records';
import type { Actor } from '../deps';
import type { OrderStatus, TransitionCause, TransitionPlan } from '../status/order-states';
import type { Order } from './order-types';

const ACTIVITY = activityLogged('orders');

/** What order_placed tells: known before the order is inserted once its ids are drawn. */
export type PlacedOrder = Pick<
  Order,
  'id' | 'customerId' | 'status' | 'currency' | 'total' | 'couponCodes' | 'reservationId' | 'paymentMethod' | 'billing' | 'shipping' | 'orderKey' | 'createdVia'
> & { lineItems: Order['lineItems'] };

export function eventLines(order: Pick<Order, 'lineItems'>): orders.OrderCancelledLine[] {
  return order.lineItems.map((l) => ({
    productId: l.productId,
    variationId: l.variationId,
    quantity: l.quantity,
    priceId: l.priceId,
    lineId: l.id,
    downloadable: l.downloadable,
    name: l.name,
    total: fromMinor(l.total),
    tax: fromMinor(l.tax),
    subscription: l.subscription ?? undefined,
  }));
}

/** Publishes order_placed (an order reached pending_payment, or an admin created one). */
export function recordPlaced(events: EventSink, order: PlacedOrder, now: Date): void {
  events(OrderEvents.orderPlaced, {
    orderId: order.id,
    customerId: order.customerId,
    status: order.status,
    currency: order.currency,
    total: fromMinor(order.total),
    lines: eventLines(order),
    couponCodes: order.couponCodes,
    reservationId: order.reservationId,
    paymentMethod: order.paymentMethod,
    billingEmail: order.billing.email,
    billingFirstName: order.billing.firstName,
    orderKey: order.orderKey,
    createdAt: now,
    billing: { ...order.billing },
    shipping: { ...order.shipping },
    createdVia: order.createdVia,
  });
  recordActivity(events, order, 'info', `Order #${order.id} placed.`, { order_id: order.id, status: order.status });
}

/** Publishes order_deleted: what the order held goes back (see the event). */
export function recordDeleted(events: EventSink, order: Order): void {
  const counted = (order.paidStatus === 'paid' || order.paidStatus === 'partially_refunded') && order.status !== 'cancelled';
  events(OrderEvents.orderDeleted, {
    orderId: order.id,
    customerId: order.customerId,
    status: order.status,
    paidStatus: order.paidStatus,
    reservationId: order.reservationId,
    lines: eventLines(order),
    counted,
    countedAmount: fromMinor(counted ? order.total - order.refundedTotal : 0),
  });
  recordActivity(events, order, 'warning', `Order #${order.id} deleted.`, { order_id: order.id, status: order.status });
}

/** A PII-free activity-log entry (ids and statuses only). */
export function recordActivity(
  events: EventSink,
  order: Pick<Order, 'id' | 'customerId'>,
  status: 'info' | 'success' | 'warning' | 'error',
  message: string,
  context: Record<string, unknown>,
): void {
  events(ACTIVITY, {
    status,
    source: 'orders',
    message,
    contextJson: JSON.stringify(context),
    customerId: order.customerId,
    orderId: order.id,
  });
}

export interface TransitionExtras {
  cause: TransitionCause;
  actor: Actor;
  note?: string;
  /** Other field changes committed with the status (transaction id, payment method...). */
  changes?: OrderFieldChanges;
  /** For order_refunded. */
  refund?: { amount: number; reason: string };
  failureReason?: string;
}

/** A transition as written: the order's field changes, its status-history row, and the order after it. */
export interface TransitionWrite {
  changes: OrderFieldChanges;
  history: Omit<StatusChange, 'orderId'>;
  next: Order;
}

/**
 * Applies a planned transition inside the caller's transaction: the new status
 * (and paid_status / dates the effect implies), a status-history row (who,
 * when, from, to), order_status_changed, the effect's own event and an
 * activity-log entry. Returns the order as it now is (lines unchanged).
 */
export async function applyTransition(
  em: EntityManager,
  order: Order,
  plan: TransitionPlan,
  extras: TransitionExtras,
  now: Date,
): Promise<Order> {
  const write = transitionWrite(order, plan, extras, now, intoOutbox(em));
  await updateOrderWithHistory(em, order.id, write.changes, write.history, now);
  return write.next;
}

/**
 * What a planned transition writes (see applyTransition), its events given to
 * `events`; nothing is written here.
 */
export function transitionWrite(
  order: Order,
  plan: TransitionPlan,
  extras: TransitionExtras,
  now: Date,
  events: EventSink,
): TransitionWrite {
  const changes: OrderFieldChanges = { ...extras.changes, status: plan.to };
  if (plan.effect === 'paid') {
    changes.paidStatus = 'paid';
    changes.datePaid = now;
  }
  if (plan.to === 'completed' && !order.dateCompleted) changes.dateCompleted = now;
  if (plan.effect === 'refunded') {
    changes.paidStatus = 'refunded';
    changes.refundedTotal = order.total;
  }
  const history = {
    fromStatus: plan.from,
    toStatus: plan.to,
    byUserId: extras.actor.userId,
    cause: extras.cause,
    note: extras.note ?? '',
    changedAt: now,
  };
  const next: Order = {
    ...order,
    ...stripUndefined(changes),
    status: plan.to,
    dateModified: now,
  } as Order;

  events(OrderEvents.orderStatusChanged, {
    orderId: order.id,
    fromStatus: plan.from,
    toStatus: plan.to,
    byUserId: extras.actor.userId,
    changedAt: now,
    billingEmail: next.billing.email,
    billingFirstName: next.billing.firstName,
    total: fromMinor(next.total),
    currency: next.currency,
    paymentMethod: next.paymentMethod,
    lines: eventLines(next),
    customerId: next.customerId,
  });
  recordActivity(events, next, statusTone(plan.to), `Order #${order.id} status changed from ${plan.from} to ${plan.to}.`, {
    order_id: order.id,
    from: plan.from,
    to: plan.to,
    // Who: the cause (customer, admin, payment...), not the user id: /logs is public, and a
    // customer's id next to their order is what its customer/order filters keep to admins.
    cause: extras.cause,
  });

  switch (plan.effect) {
    case 'placed':
      recordPlaced(events, next, now);
      break;
    case 'paid':
      events(OrderEvents.orderPaid, {
        orderId: next.id,
        customerId: next.customerId,
        currency: next.currency,
        total: fromMinor(next.total),
        subtotal: fromMinor(next.subtotal),
        discountTotal: fromMinor(next.discountTotal),
        shippingTotal: fromMinor(next.shippingTotal),
        totalTax: fromMinor(next.totalTax),
        lines: eventLines(next),
        couponCodes: next.couponCodes,
        reservationId: next.reservationId,
        paymentMethod: next.paymentMethod,
        transactionId: next.transactionId,
        status: next.status,
        billingEmail: next.billing.email,
        billingFirstName: next.billing.firstName,
        orderKey: next.orderKey,
        paidAt: now,
      });
      break;
    case 'failed':
      events(OrderEvents.orderFailed, {
        orderId: next.id,
        customerId: next.customerId,
        reservationId: next.reservationId,
        couponCodes: next.couponCodes,
        lines: eventLines(next),
        reason: extras.failureReason ?? extras.note ?? '',
      });
      break;
    case 'cancelled':
      events(OrderEvents.orderCancelled, {
        orderId: next.id,
        reservationId: next.reservationId,
        lines: eventLines(next),
        customerId: next.customerId,
        couponCodes: next.couponCodes,
        wasPaid: order.paidStatus === 'paid',
        total: fromMinor(next.total),
        currency: next.currency,
        previousStatus: plan.from,
        billingEmail: next.billing.email,
        billingFirstName: next.billing.firstName,
        orderKey: next.orderKey,
      });
      break;
    case 'refunded':
      events(OrderEvents.orderRefunded, {
        orderId: next.id,
        customerId: next.customerId,
        amount: fromMinor(extras.refund?.amount ?? next.total),
        currency: next.currency,
        full: true,
        billingEmail: next.billing.email,
        billingFirstName: next.billing.firstName,
        orderKey: next.orderKey,
        reason: extras.refund?.reason ?? '',
      });
      break;
    default:
      break;
  }
  return { changes, history, next };
}

function statusTone(to: OrderStatus): 'info' | 'success' | 'warning' | 'error' {
  if (to === 'completed' || to === 'processing') return 'success';
  if (to === 'failed') return 'error';
  if (to === 'cancelled' || to === 'refunded') return 'warning';
  return 'info';
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
