import { DomainError, notFound } from '@storefront/errors';
import { readOrder } from '../../persistence/orders.repository';
import type { SubscriptionTerms } from '../../persistence/order-records';
import type { NewSubscription, Subscription, SubscriptionListQuery, SubscriptionTransition } from '../../persistence/subscription-records';
import {
  findSubscription,
  listSubscriptions,
  startSubscriptions,
  transitionSubscription,
} from '../../persistence/subscriptions.repository';
import type { Actor, OrdersDeps } from '../deps';
import { addDays, addPeriods } from './schedule';

export type { Subscription, SubscriptionStatus } from '../../persistence/subscription-records';

export const subscriptionNotFound = () => notFound('shop_rest_subscription_invalid_id', 'Invalid subscription ID.');

/** A line of a paid order, as order_paid carries it. */
export interface PaidLine {
  lineId: number;
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  quantity: number;
  /** Minor units. */
  total: number;
  tax: number;
  subscription: SubscriptionTerms | null;
}

export interface PaidOrder {
  orderId: number;
  customerId: number;
  currency: string;
  paidAt: Date;
  lines: PaidLine[];
}

export type SubscriptionAction = 'cancel' | 'pause' | 'resume';

/**
 * The customer's transitions (spec 3). The spec leaves their source states
 * open; these follow the subscription platforms merchants know: cancel ends
 * the subscription at the end of the paid period (pending_cancel, from active
 * or on hold), pause suspends an active one, resume reactivates a paused or
 * pending-cancel one.
 */
const TRANSITIONS: Record<SubscriptionAction, SubscriptionTransition> = {
  cancel: { to: 'pending_cancel', from: ['active', 'on_hold'], endDate: 'next_payment', suspend: false, note: 'Subscription cancelled by the customer.' },
  pause: { to: 'on_hold', from: ['active'], endDate: 'keep', suspend: true, note: 'Subscription paused by the customer.' },
  resume: { to: 'active', from: ['on_hold', 'pending_cancel'], endDate: 'clear', suspend: false, note: 'Subscription resumed by the customer.' },
};

export const isSubscriptionAction = (action: string): action is SubscriptionAction => Object.hasOwn(TRANSITIONS, action);

const scheduleKey = (t: SubscriptionTerms) => `${t.billingPeriod}:${t.billingInterval}:${t.trialDays}`;

/** Subscriptions: started by an order's payment, read and changed by their customer, read by admins. */
export class Subscriptions {
  constructor(private readonly deps: OrdersDeps) {}

  /**
   * Starts one subscription per billing schedule among a paid order's
   * subscription lines (idempotent: a redelivery starts nothing twice). An
   * order without such lines costs nothing.
   */
  async startForPaidOrder(paid: PaidOrder): Promise<number> {
    const groups = new Map<string, PaidLine[]>();
    for (const line of paid.lines) {
      if (!line.subscription) continue;
      const key = scheduleKey(line.subscription);
      groups.set(key, [...(groups.get(key) ?? []), line]);
    }
    if (!groups.size) return 0;
    // The addresses and the gateway's title are the order's (not in the event).
    const order = await readOrder(this.deps.db.reader, paid.orderId);
    if (!order) return 0; // deleted since it was paid: nothing to start
    const start = paid.paidAt;
    const subs: NewSubscription[] = [...groups.entries()].map(([key, lines]) => {
      const terms = lines[0].subscription!;
      const trialEnd = terms.trialDays > 0 ? addDays(start, terms.trialDays) : null;
      return {
        startKey: `${paid.orderId}:${key}`,
        customerId: paid.customerId,
        status: 'active',
        currency: paid.currency,
        total: lines.reduce((sum, l) => sum + l.total + l.tax, 0),
        billingPeriod: terms.billingPeriod,
        billingInterval: terms.billingInterval,
        trialDays: terms.trialDays,
        startDate: start,
        nextPaymentDate: trialEnd ?? addPeriods(start, terms.billingPeriod, terms.billingInterval),
        lastPaymentDate: start,
        endDate: null,
        trialEndDate: trialEnd,
        paymentMethod: order.paymentMethod,
        paymentMethodTitle: order.paymentMethodTitle || order.paymentMethod,
        parentOrderId: paid.orderId,
        billing: order.billing,
        shipping: order.shipping,
        lines: lines.map((l) => ({
          orderLineId: l.lineId,
          productId: l.productId,
          priceId: l.priceId,
          variationId: l.variationId,
          name: l.name,
          quantity: l.quantity,
          total: l.total,
          tax: l.tax,
        })),
      };
    });
    return startSubscriptions(this.deps.db.reader, subs, this.deps.now());
  }

  async listMine(actor: Actor, page: number, perPage: number, status: string) {
    if (!actor.userId) return { subscriptions: [], total: 0 };
    return this.list({ page, perPage, status, customerId: actor.userId, after: null, before: null });
  }

  list(q: SubscriptionListQuery): Promise<{ subscriptions: Subscription[]; total: number }> {
    return listSubscriptions(this.deps.db.reader, { ...q, page: Math.max(1, q.page || 1), perPage: Math.min(100, Math.max(1, q.perPage || 10)) });
  }

  /** The caller's own subscription; another customer's is not found (404, existence not revealed). */
  async getMine(actor: Actor, id: number): Promise<Subscription> {
    const found = actor.userId ? await findSubscription(this.deps.db.reader, id, actor.userId) : null;
    if (!found) throw subscriptionNotFound();
    return found;
  }

  async get(id: number): Promise<Subscription> {
    const found = await findSubscription(this.deps.db.reader, id);
    if (!found) throw subscriptionNotFound();
    return found;
  }

  /**
   * cancel / pause / resume of the caller's subscription: one conditional
   * update, so two racing requests cannot both apply. A status the action
   * cannot start from is the spec's `shop_rest_status_failed` (500).
   */
  async transitionMine(actor: Actor, id: number, action: string): Promise<Subscription> {
    if (!isSubscriptionAction(action)) throw new DomainError('rest_invalid_param', 400, `Unknown subscription action "${action}".`);
    const t = TRANSITIONS[action];
    // The usual request is one statement: the update applies only to the caller's own, in a status it allows.
    const changed = actor.userId ? await transitionSubscription(this.deps.db.reader, id, actor.userId, t, this.deps.now()) : null;
    if (changed) return changed;
    // Otherwise: not theirs (404), or a status the action cannot start from.
    const now = (await this.getMine(actor, id)).status;
    throw new DomainError(
      'shop_rest_status_failed',
      500,
      `The subscription cannot be changed to ${t.to.replace('_', '-')} from ${now.replace('_', '-')}.`,
      { from: now, to: t.to },
    );
  }
}
