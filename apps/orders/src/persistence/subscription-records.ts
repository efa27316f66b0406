// The subscription record as the repository stores and returns it (and the
// domain works on). Amounts are integer minor units.
import type { Address } from './order-records';

export const SUBSCRIPTION_STATUSES = ['active', 'pending_cancel', 'on_hold'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface SubscriptionLine {
  orderLineId: number;
  productId: number;
  priceId: number;
  variationId: number;
  name: string;
  quantity: number;
  total: number;
  tax: number;
}

export interface Subscription {
  id: number;
  customerId: number;
  status: SubscriptionStatus;
  currency: string;
  total: number;
  billingPeriod: string;
  billingInterval: number;
  trialDays: number;
  startDate: Date;
  nextPaymentDate: Date | null;
  lastPaymentDate: Date | null;
  endDate: Date | null;
  trialEndDate: Date | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  parentOrderId: number;
  relatedOrderIds: number[];
  suspensionCount: number;
  billing: Address;
  shipping: Address;
  lines: SubscriptionLine[];
  dateCreated: Date;
  dateModified: Date;
}

/** A subscription to start: everything but its id and the dates the row stamps. */
export type NewSubscription = Omit<Subscription, 'id' | 'dateCreated' | 'dateModified' | 'relatedOrderIds' | 'suspensionCount'> & {
  /** Order id and schedule: a second start of the same one is a no-op. */
  startKey: string;
};

export interface SubscriptionListQuery {
  page: number;
  perPage: number;
  status: string;
  customerId: number;
  after: Date | null;
  before: Date | null;
}

/** The changes a transition writes, applied only while the status is still one of `from`. */
export interface SubscriptionTransition {
  to: SubscriptionStatus;
  from: readonly SubscriptionStatus[];
  endDate: 'next_payment' | 'clear' | 'keep';
  suspend: boolean;
  note: string;
}
