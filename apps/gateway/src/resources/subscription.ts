import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { orders } from '@storefront/proto/orders';
import { formatDateTime } from '../http/dates';
import { resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';
import { Address, DateTime, Nullable } from '../http/schemas';
import { restAddress } from './address';

// Subscriptions of spec 2.4 (the subscriptions addon). Money is a JSON number;
// dates are `YYYY-MM-DD HH:MM:SS` (UTC).

export const SUBSCRIPTION_STATUSES = ['active', 'pending_cancel', 'on_hold'] as const;

const SummaryFields = {
  id: Type.Integer(),
  status: Type.String({ enum: [...SUBSCRIPTION_STATUSES] }),
  total: Type.Number({ description: 'Charged each billing period: the subscribed lines with their tax.' }),
  currency: Type.String(),
  billing_period: Type.String({ enum: ['day', 'week', 'month', 'year'] }),
  billing_interval: Type.Integer({ description: 'Billing periods between payments.' }),
  start_date: DateTime('When the parent order was paid.'),
  next_payment_date: DateTime('The next renewal (the trial end during a trial); null when none is due.'),
  last_payment_date: DateTime(),
  end_date: Nullable(Type.String({ description: 'When a pending cancellation takes effect (the end of the paid period); null otherwise.' })),
  trial: Type.Boolean({ description: 'True while the trial lasts.' }),
  trial_end_date: Nullable(Type.String({ description: 'End of the trial; null without one.' })),
  payment_method: Type.String({ description: 'The gateway, as customers see it.' }),
  parent_order_id: Type.Integer({ description: 'The order whose payment started it.' }),
};

export const SubscriptionSummarySchema = Type.Object({ ...SummaryFields, _links: LinksSchema }, { title: 'SubscriptionSummary' });

const SubscriptionLine = Type.Object({
  product_id: Type.Integer(),
  price_id: Type.Integer(),
  variation_id: Type.Integer(),
  name: Type.String(),
  quantity: Type.Integer(),
  total: Type.Number(),
  tax: Type.Number(),
});

export const SubscriptionDetailSchema = Type.Object(
  {
    ...SummaryFields,
    related_order_ids: Type.Array(Type.Integer(), { description: 'Orders of this subscription (the parent first).' }),
    suspension_count: Type.Integer({ description: 'Times it was paused.' }),
    billing_address: Address,
    shipping_address: Address,
    line_items: Type.Array(SubscriptionLine),
    customer_id: Type.Optional(Type.Integer({ description: 'edit context (admin).' })),
    payment_method_id: Type.Optional(Type.String({ description: 'edit context (admin): the gateway id.' })),
    date_created: Type.Optional(DateTime('edit context (admin).')),
    date_modified: Type.Optional(DateTime('edit context (admin).')),
    _links: LinksSchema,
  },
  { title: 'Subscription' },
);

export const MY_SUBSCRIPTIONS = '/shop/v1/me/subscriptions';
export const SUBSCRIPTIONS = '/shop/v1/subscription';

const num = (decimal: string) => Number(decimal || 0);

function summary(s: orders.Subscription, now: Date) {
  return {
    id: s.id,
    status: s.status,
    total: num(s.total),
    currency: s.currency,
    billing_period: s.billingPeriod,
    billing_interval: s.billingInterval,
    start_date: formatDateTime(s.startDate),
    // Cancelled, it ends at end_date: nothing more is due (resuming brings the date back).
    next_payment_date: s.status === 'pending_cancel' ? null : formatDateTime(s.nextPaymentDate),
    last_payment_date: formatDateTime(s.lastPaymentDate),
    end_date: formatDateTime(s.endDate),
    trial: !!s.trialEndDate && s.trialEndDate.getTime() > now.getTime(),
    trial_end_date: formatDateTime(s.trialEndDate),
    payment_method: s.paymentMethodTitle || s.paymentMethod,
    parent_order_id: s.parentOrderId,
  };
}

export function subscriptionSummaryResource(s: orders.Subscription, request: FastifyRequest, collection = MY_SUBSCRIPTIONS) {
  return { ...summary(s, new Date()), _links: resourceLinks(request, `${collection}/${s.id}`, collection) };
}

export function subscriptionDetailResource(s: orders.Subscription, request: FastifyRequest, options: { collection?: string; edit?: boolean } = {}) {
  const collection = options.collection ?? MY_SUBSCRIPTIONS;
  return {
    ...summary(s, new Date()),
    related_order_ids: s.relatedOrderIds,
    suspension_count: s.suspensionCount,
    billing_address: restAddress(s.billing),
    shipping_address: restAddress(s.shipping),
    line_items: s.lines.map((l) => ({
      product_id: l.productId,
      price_id: l.priceId,
      variation_id: l.variationId,
      name: l.name,
      quantity: l.quantity,
      total: num(l.total),
      tax: num(l.tax),
    })),
    ...(options.edit
      ? {
          customer_id: s.customerId,
          payment_method_id: s.paymentMethod,
          date_created: formatDateTime(s.dateCreated),
          date_modified: formatDateTime(s.dateModified),
        }
      : {}),
    _links: resourceLinks(request, `${collection}/${s.id}`, collection),
  };
}
