import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { payments } from '@storefront/proto/payments';
import { resourceLinks } from '../http/links';

const Links = Type.Object({}, { additionalProperties: true, description: 'self and collection links.' });

/** The contract's payment record (`GET /payment`, `GET /payment/<id>`). */
export const PaymentRecordSchema = Type.Object(
  {
    order_id: Type.Integer(),
    status: Type.String({ description: 'Order status.' }),
    paid_status: Type.String({ description: 'unpaid | paid | partially_refunded | refunded' }),
    payment_method: Type.String({ description: 'Gateway id.' }),
    transaction_id: Type.String(),
    amount: Type.Number({ description: 'Order total in the order currency.' }),
    currency: Type.String(),
    gateway: Type.Object({ id: Type.String(), title: Type.String() }),
    attempts: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          gateway: Type.String(),
          amount: Type.Number(),
          currency: Type.String(),
          outcome: Type.String({ description: 'paid | on_hold | requires_action | declined | failed' }),
          transaction_id: Type.String(),
          decline_reason: Type.String(),
          date_created: Type.String(),
        }),
        { description: 'Payment attempts of the order, newest first (edit context).' },
      ),
    ),
    _links: Links,
  },
  { title: 'Payment' },
);

export function paymentRecordResource(p: payments.PaymentRecord, withAttempts: boolean, request: FastifyRequest) {
  return {
    order_id: p.orderId,
    status: p.status,
    paid_status: p.paidStatus,
    payment_method: p.paymentMethod,
    transaction_id: p.transactionId,
    amount: Number(p.amount || '0'),
    currency: p.currency,
    gateway: { id: p.gatewayId, title: p.gatewayTitle },
    ...(withAttempts
      ? {
          attempts: p.attempts.map((a) => ({
            id: a.id,
            gateway: a.gatewayId,
            amount: Number(a.amount),
            currency: a.currency,
            outcome: a.outcome,
            transaction_id: a.transactionId,
            decline_reason: a.declineReason,
            date_created: a.createdAt.replace('T', ' ').slice(0, 19),
          })),
        }
      : {}),
    // Spec 1: custom-controller resources carry self and collection.
    _links: resourceLinks(request, `/shop/v1/payment/${p.orderId}`, '/shop/v1/payment'),
  };
}

/** A registered payment gateway (spec 2.11 attributes), as `GET /payment/all` lists it. */
export const PaymentGatewaySchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    method_title: Type.String(),
    method_description: Type.String(),
    icon: Type.String(),
    has_fields: Type.Boolean(),
    supports: Type.Array(Type.String()),
    index: Type.Integer(),
    max_amount: Type.Number({ description: '0 = no cap.' }),
    saved_cards: Type.Boolean(),
    admin_fields: Type.Array(Type.Object({}, { additionalProperties: true })),
    verify_config: Type.Boolean(),
    enabled: Type.Boolean(),
    available: Type.Boolean({ description: 'Enabled and usable (cart-specific rules aside).' }),
    supports_intents: Type.Boolean(),
    settings: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Stored settings (edit context; passwords masked).' })),
    _links: Links,
  },
  { title: 'PaymentGateway' },
);

export function paymentGatewayResource(g: payments.GatewayDetail, request: FastifyRequest, context: string) {
  return {
    id: g.id,
    title: g.title,
    description: g.description,
    method_title: g.methodTitle,
    method_description: g.methodDescription,
    icon: g.icon,
    has_fields: g.hasFields,
    supports: g.supports,
    index: g.index,
    max_amount: Number(g.maxAmount || '0'),
    saved_cards: g.savedCards,
    admin_fields: JSON.parse(g.adminFieldsJson || '[]') as object[],
    verify_config: g.verifyConfig,
    enabled: g.enabled,
    available: g.available,
    supports_intents: g.supportsIntents,
    ...(context === 'edit' ? { settings: JSON.parse(g.settingsJson || '{}') as object } : {}),
    _links: resourceLinks(request, `/shop/v1/payment/all`, '/shop/v1/payment/all'),
  };
}

/** A saved payment token (spec 2.9) with the card gateway's concrete fields. */
export const SavedTokenSchema = Type.Object(
  {
    id: Type.Integer(),
    gateway: Type.String(),
    display_name: Type.String(),
    is_default: Type.Boolean(),
    brand: Type.String(),
    last4: Type.String(),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    date_created: Type.String(),
    _links: Links,
  },
  { title: 'PaymentToken' },
);

export function savedTokenResource(t: payments.SavedToken | undefined, request: FastifyRequest) {
  const token = t!;
  return {
    id: token.id,
    gateway: token.gateway,
    display_name: token.displayName,
    is_default: token.isDefault,
    brand: token.brand,
    last4: token.last4,
    exp_month: token.expMonth,
    exp_year: token.expYear,
    date_created: token.createdAt.replace('T', ' ').slice(0, 19),
    _links: resourceLinks(request, `/shop/v1/payment-methods/${token.id}`, '/shop/v1/me/payment-methods'),
  };
}

/** Settings of every gateway keyed by gateway id (passwords masked). */
export const PaymentGatewaySettingsSchema = Type.Object(
  {},
  { title: 'PaymentGatewaySettings', additionalProperties: true, description: 'Keyed by gateway id, then field.' },
);
