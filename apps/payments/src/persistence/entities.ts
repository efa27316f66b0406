import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A gateway's stored settings (one row per configured gateway; absent = defaults). */
export const GatewaySettingsRow = defineEntity({
  name: 'GatewaySettingsRow',
  tableName: 'gateway_settings',
  properties: {
    gatewayId: p.string().length(60).primary(),
    settings: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime(),
  },
});
export type GatewaySettingsRow = InferEntity<typeof GatewaySettingsRow>;

/** One payment attempt: who paid what through which gateway and how it ended. Never card data. */
export const PaymentAttemptRow = defineEntity({
  name: 'PaymentAttemptRow',
  tableName: 'payment_attempts',
  indexes: [{ name: 'payment_attempts_order_idx', properties: ['orderId'] }],
  properties: {
    id: p.string().length(40).primary(),
    orderId: p.bigint('number'),
    gatewayId: p.string().length(60),
    amountMinor: p.bigint('number'),
    currency: p.string().length(3),
    outcome: p.string().length(20),
    transactionId: p.string().length(100).default(''),
    declineReason: p.string().length(60).default(''),
    message: p.text().default(''),
    idempotencyKey: p.string().length(300).nullable().unique('payment_attempts_idempotency_key_unique'),
    fingerprint: p.string().length(64).default(''),
    customerId: p.bigint('number').default(0),
    clientIp: p.string().length(64).default(''),
    intentId: p.string().length(60).default(''),
    redirectUrl: p.text().default(''),
    clientSecret: p.string().length(200).default(''),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PaymentAttemptRow = InferEntity<typeof PaymentAttemptRow>;

/** A payment or setup intent of the card simulator (brand, last 4 and expiry only). */
export const IntentRow = defineEntity({
  name: 'IntentRow',
  tableName: 'intents',
  indexes: [{ name: 'intents_status_expires_idx', properties: ['status', 'expiresAt'] }],
  properties: {
    id: p.string().length(60).primary(),
    kind: p.string().length(10),
    gatewayId: p.string().length(60),
    orderId: p.bigint('number').default(0),
    attemptId: p.string().length(40).default(''),
    customerId: p.bigint('number').default(0),
    amountMinor: p.bigint('number').default(0),
    currency: p.string().length(3).default(''),
    status: p.string().length(30),
    clientSecret: p.string().length(200),
    cardBrand: p.string().length(30).default(''),
    cardLast4: p.string().length(4).default(''),
    expMonth: p.integer().default(0),
    expYear: p.integer().default(0),
    cardBehaviour: p.string().length(30).default(''),
    returnUrl: p.text().default(''),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** A setup intent's saved token, once it made one. */
    tokenId: p.bigint('number').nullable(),
  },
});
export type IntentRow = InferEntity<typeof IntentRow>;

/** A saved payment token: brand, last 4 and expiry, never the number or CVC. */
export const TokenRow = defineEntity({
  name: 'TokenRow',
  tableName: 'tokens',
  indexes: [{ name: 'tokens_customer_idx', properties: ['customerId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    customerId: p.bigint('number'),
    gatewayId: p.string().length(60),
    gatewayToken: p.string().length(60),
    brand: p.string().length(30),
    last4: p.string().length(4),
    expMonth: p.integer(),
    expYear: p.integer(),
    cardBehaviour: p.string().length(30),
    isDefault: p.boolean().default(false),
    createdAt: p.datetime(),
  },
});
export type TokenRow = InferEntity<typeof TokenRow>;

/** First result of an Idempotency-Key per caller (payment-methods). */
export const IdempotencyKeyRow = defineEntity({
  name: 'IdempotencyKeyRow',
  tableName: 'idempotency_keys',
  properties: {
    callerId: p.bigint('number').primary(),
    key: p.string().length(300).primary(),
    fingerprint: p.string().length(64),
    response: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});

/** Declined/failed payment attempts per client IP in the current window (card-testing defence). */
export const FailureWindowRow = defineEntity({
  name: 'FailureWindowRow',
  tableName: 'failure_windows',
  properties: {
    clientIp: p.string().length(64).primary(),
    windowStart: p.datetime(),
    failures: p.integer(),
  },
});

/** A refund made through a gateway. */
export const RefundRow = defineEntity({
  name: 'RefundRow',
  tableName: 'refunds',
  properties: {
    id: p.string().length(40).primary(),
    orderId: p.bigint('number'),
    gatewayId: p.string().length(60),
    transactionId: p.string().length(100),
    amountMinor: p.bigint('number'),
    currency: p.string().length(3),
    reason: p.text().default(''),
    createdAt: p.datetime(),
    idempotencyKey: p.string().length(255).nullable().unique('refunds_idempotency_key_key'),
  },
});

export const entities = [GatewaySettingsRow, PaymentAttemptRow, IntentRow, TokenRow, IdempotencyKeyRow, FailureWindowRow, RefundRow];
