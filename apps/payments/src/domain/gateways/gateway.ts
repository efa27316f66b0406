/**
 * The payment gateway contract (spec 2.11). A gateway is a pluggable
 * component: attributes describe it to customers and admins, operations run
 * it. Optional operations are absent when the gateway cannot do them (offline
 * gateways have no intents, no refunds, no tokens). Gateways hold no state:
 * their stored settings and everything they need arrive in each call.
 *
 * Adding a gateway: implement this interface in `domain/gateways/<id>.ts`
 * (or its own folder) and register it in `domain/gateways/registered.ts`,
 * eagerly (the class list) or lazily (id -> factory). Nothing else changes:
 * the REST routes, the settings schema (OPTIONS) and availability follow.
 */

import type { CardSummary, StoredToken } from '../../persistence/token-records';
import type { AvailabilityQuery } from './availability';

export type { CardSummary, StoredToken };

/** Feature flags of spec 2.11. */
export const GATEWAY_FEATURES = [
  'products',
  'refunds',
  'subscriptions',
  'multiple_subscriptions',
  'subscription_cancellation',
  'subscription_reactivation',
  'subscription_suspension',
  'subscription_amount_changes',
  'subscription_date_changes',
  'subscription_payment_method_change',
  'subscription_payment_method_change_admin',
  'subscription_payment_method_change_customer',
  'tokenization',
  'add_payment_method',
  'gateway_scheduled_payments',
] as const;
export type GatewayFeature = (typeof GATEWAY_FEATURES)[number];

/** Settings-field types of spec 2.11. */
export const FIELD_TYPES = ['text', 'safe_text', 'password', 'textarea', 'checkbox', 'multiselect', 'copy_text'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One admin settings field of a gateway. */
export interface SettingsField {
  id: string;
  type: FieldType;
  title: string;
  description?: string;
  default?: string | boolean | string[];
  /** multiselect: allowed values -> labels. */
  options?: Record<string, string>;
}

/** A gateway's stored settings: implicit is_enabled/index plus its own fields. */
export interface GatewaySettings {
  is_enabled: boolean;
  index: number;
  [field: string]: unknown;
}

/** Outcome of running a gateway for an order (the contract's ProcessPayment outcomes). */
export type PaymentOutcome = 'paid' | 'on_hold' | 'requires_action' | 'declined' | 'failed';

/** Intent payload of spec 2.11 (any of the four). */
export interface IntentPayload {
  clientSecret: string;
  intentId: string;
  redirectUrl: string;
  requiresAction: boolean;
}

/** An intent the domain must persist for a gateway (payment or setup). */
export interface NewIntent extends IntentPayload {
  kind: 'payment' | 'setup';
  status: 'requires_action' | 'requires_confirmation' | 'succeeded';
  card?: CardSummary;
}

/** What the domain resolves for a gateway before it runs (no I/O inside gateways). */
export interface GatewayEnvironment {
  settings: GatewaySettings;
  /** The site URL (from site settings, never request headers), without a trailing slash. */
  siteUrl: string;
  /** A saved token of the paying customer, when the payload names one (already ownership-checked). */
  loadToken(tokenId: number): Promise<StoredToken | undefined>;
  /** A confirmed setup intent's card, when the payload names one. */
  loadSetupIntent(intentId: string): Promise<CardSummary | undefined>;
}

export interface PaymentRequest {
  orderId: number;
  orderKey: string;
  amountMinor: number;
  currency: string;
  customerId: number;
  payload: Record<string, unknown>;
  returnUrl: string;
  hasSubscription: boolean;
  savePaymentMethod: boolean;
}

/**
 * Spec 2.11's process-payment result: `result` success (with `redirect`) or
 * failure, plus the outcome the platform acts on.
 */
export interface PaymentResult {
  result: 'success' | 'failure';
  outcome: PaymentOutcome;
  redirect: string;
  transactionId: string;
  declineReason: string;
  message: string;
  /** An intent to persist (requires_action). */
  intent?: NewIntent;
  /** A card to save as a token (save_payment_method on success). */
  saveCard?: CardSummary;
}

export interface RefundRequest {
  orderId: number;
  transactionId: string;
  amountMinor: number;
  currency: string;
  reason: string;
  /**
   * "" or the caller's key: a processor given the same key again refunds
   * nothing more and answers the first refund (as Stripe's Idempotency-Key).
   */
  idempotencyKey: string;
}

export interface IntentRequest {
  orderId: number;
  amountMinor: number;
  currency: string;
  customerId: number;
  setup: boolean;
  returnUrl: string;
}

export interface AddPaymentMethodRequest {
  customerId: number;
  payload: Record<string, unknown>;
  fields: Record<string, unknown>;
}

/** Attributes and operations of a payment gateway (spec 2.11). */
export interface PaymentGateway {
  readonly id: string;
  /** Customer-facing (defaults; the stored `title`/`description` settings override them). */
  readonly title: string;
  readonly description: string;
  /** Admin-facing. */
  readonly methodTitle: string;
  readonly methodDescription: string;
  /** Icon URL ("" for none). */
  readonly icon: string;
  /** Renders extra checkout fields. */
  readonly hasFields: boolean;
  /** Feature flags; at least `products`. */
  readonly supports: readonly GatewayFeature[];
  /** Default sort order (the stored `index` setting overrides it). */
  readonly index: number;
  /** Max transaction amount in minor units; 0 = no cap. */
  readonly maxAmount: number;
  /** Saving payment methods allowed. */
  readonly savedCards: boolean;
  /** Settings-field schema. */
  readonly adminFields: readonly SettingsField[];
  /** Saved settings need verification. */
  readonly verifyConfig: boolean;
  /** Publishable key shown to clients ("" for none). */
  publishableKey?(settings: GatewaySettings): string;
  /** What a customer is told to do to pay (plain text, "" for nothing): emails and the thank-you page. */
  paymentInstructions?(settings: GatewaySettings): string;
  /** The gateway's own availability rule for a cart or order, from its settings (cod: its shipping methods). */
  availableFor?(settings: GatewaySettings, query: AvailabilityQuery): boolean;
  /**
   * Its processPayment decides without calling anything outside this process
   * (cash on delivery, bank transfer): there is no charge that a crash could
   * leave undecided, so the attempt is written once, with its outcome.
   */
  readonly settlesLocally?: boolean;

  /** Runs a payment. A decline is a result, not an exception. */
  processPayment(request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult>;
  /** Renewals and installments (off-session, saved token). */
  processScheduledPayment?(request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult>;
  /** Money back; returns the refund id. */
  refund?(request: RefundRequest, env: GatewayEnvironment): Promise<string>;
  /** Checkout/payment-method fields; throws a DomainError to block the submission. */
  validateFields?(fields: Record<string, unknown>, env: GatewayEnvironment): void;
  /** Checks a payment payload as processPayment would read it, charging nothing; throws a DomainError. */
  validatePayment?(payload: Record<string, unknown>, env: GatewayEnvironment): Promise<void>;
  /** Checks credentials; throws a DomainError when they do not work. */
  verifyConfiguration?(settings: GatewaySettings): Promise<void>;
  /** A payment intent (or setup intent when `request.setup`). */
  createIntent?(request: IntentRequest, env: GatewayEnvironment): Promise<NewIntent>;
  createSetupIntent?(request: IntentRequest, env: GatewayEnvironment): Promise<NewIntent>;
  /** Tokenizes a payment method for the customer (the domain stores the result). */
  addPaymentMethod?(request: AddPaymentMethodRequest, env: GatewayEnvironment): Promise<CardSummary>;
  /** Called before a token is removed / made default (e.g. to tell the processor). */
  deletePaymentMethod?(token: StoredToken, env: GatewayEnvironment): Promise<void>;
  setDefaultPaymentMethod?(token: StoredToken, env: GatewayEnvironment): Promise<void>;
}

export function supportsIntents(gateway: PaymentGateway): boolean {
  return typeof gateway.createIntent === 'function';
}

export function supportsTokens(gateway: PaymentGateway): boolean {
  return gateway.supports.includes('tokenization') || gateway.supports.includes('add_payment_method');
}
