import { createHash, randomBytes } from 'node:crypto';
import { DomainError, invalidParams, notFound, unprocessable } from '@storefront/errors';
import type {
  AddPaymentMethodRequest,
  CardSummary,
  GatewayEnvironment,
  GatewayFeature,
  GatewaySettings,
  IntentRequest,
  NewIntent,
  PaymentGateway,
  PaymentRequest,
  PaymentResult,
  RefundRequest,
  SettingsField,
} from '../gateways/gateway';
import { DECLINE_REASONS, readCard, type CardBehaviour } from './cards';

const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
};

export const ACTION_STEP_PATH = '/shop/v1/test-card/authorize';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The action-step URL of an intent, on the configured site URL. */
export function actionStepUrl(siteUrl: string, intentId: string): string {
  return `${siteUrl}${ACTION_STEP_PATH}?intent_id=${encodeURIComponent(intentId)}`;
}

/** A card a declining behaviour refuses, as the processor's decline. */
export function cardDeclined(reason: string): DomainError {
  return unprocessable('shop_payment_method_declined', DECLINE_MESSAGES[reason] ?? 'Your card was declined.', {
    decline_reason: reason,
  });
}

/** Brands accepted until an admin chooses (`card_brands`). */
const DEFAULT_BRANDS = ['visa', 'mastercard'];

/**
 * `test_card` (card addon): a simulated card processor. Test numbers decide
 * the outcome (4242... paid, ...0002 declined, ...3220 requires an action
 * step at `/shop/v1/test-card/authorize`); payment and setup intents,
 * refunds and saved-card tokens behave as a real processor's would.
 */
export class TestCardGateway implements PaymentGateway {
  readonly id = 'test_card';
  readonly title = 'Credit card (test)';
  readonly description = 'Pay with a test card. Use 4242 4242 4242 4242 with any future expiry and any CVC.';
  readonly methodTitle = 'Test card';
  readonly methodDescription = 'A simulated card processor for development and tests: intents, 3-D Secure-style action step, refunds, saved cards.';
  readonly icon = '';
  readonly hasFields = true;
  readonly supports: readonly GatewayFeature[] = [
    'products',
    'refunds',
    'tokenization',
    'add_payment_method',
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
    'gateway_scheduled_payments',
  ];
  readonly index = 2;
  readonly maxAmount = 0;
  readonly savedCards = true;
  readonly verifyConfig = true;
  readonly adminFields: readonly SettingsField[] = [
    { id: 'title', type: 'safe_text', title: 'Title' },
    { id: 'description', type: 'textarea', title: 'Description' },
    { id: 'publishable_key', type: 'text', title: 'Publishable key', default: 'pk_test_storefront' },
    { id: 'secret_key', type: 'password', title: 'Secret key', description: 'Starts with sk_test_.', default: 'sk_test_storefront' },
    { id: 'webhook_url', type: 'copy_text', title: 'Webhook URL', description: 'Read-only.', default: '' },
    { id: 'capture', type: 'checkbox', title: 'Capture charges immediately', default: true },
    { id: 'saved_cards', type: 'checkbox', title: 'Allow saved cards', default: true },
    {
      id: 'card_brands',
      type: 'multiselect',
      title: 'Accepted brands',
      default: DEFAULT_BRANDS,
      options: { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' },
    },
  ];

  publishableKey(settings: GatewaySettings): string {
    return typeof settings.publishable_key === 'string' ? settings.publishable_key : '';
  }

  async processPayment(request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult> {
    const card = await this.cardOf(request.payload, env);
    return this.charge(card, request, env);
  }

  async processScheduledPayment(request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult> {
    const card = await this.cardOf(request.payload, env);
    // Off-session: no customer to complete an action step.
    if (card.behaviour === 'requires_action') return this.declined('authentication_required');
    return this.charge(card, request, env);
  }

  async refund(request: RefundRequest): Promise<string> {
    if (!request.transactionId) throw invalidParams({ transaction_id: 'The payment has no transaction to refund.' });
    if (request.amountMinor <= 0) throw invalidParams({ amount: 'amount must be positive.' });
    // Like a processor's idempotency: the same key is the same refund (the simulator keeps no state, so the id is derived).
    return request.idempotencyKey ? `re_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}` : id('re');
  }

  validateFields(fields: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(fields)) {
      if (value !== null && typeof value === 'object') throw invalidParams({ [`fields.${key}`]: 'Field values must be scalars.' });
    }
  }

  async verifyConfiguration(settings: GatewaySettings): Promise<void> {
    const secret = settings.secret_key;
    const publishable = settings.publishable_key;
    if (typeof secret !== 'string' || !secret.startsWith('sk_test_')) {
      throw unprocessable('shop_payment_gateway_verification_failed', 'The secret key is not valid (it starts with sk_test_).', {
        params: { secret_key: 'Invalid secret key.' },
      });
    }
    if (publishable !== undefined && (typeof publishable !== 'string' || !publishable.startsWith('pk_test_'))) {
      throw unprocessable('shop_payment_gateway_verification_failed', 'The publishable key is not valid (it starts with pk_test_).', {
        params: { publishable_key: 'Invalid publishable key.' },
      });
    }
  }

  async createIntent(request: IntentRequest): Promise<NewIntent> {
    if (request.setup) return this.setupIntent();
    const intentId = id('pi');
    return { kind: 'payment', status: 'requires_confirmation', intentId, clientSecret: `${intentId}_secret_${randomBytes(12).toString('hex')}`, redirectUrl: '', requiresAction: false };
  }

  async createSetupIntent(): Promise<NewIntent> {
    return this.setupIntent();
  }

  async addPaymentMethod(request: AddPaymentMethodRequest, env: GatewayEnvironment): Promise<CardSummary> {
    const card = await this.cardOf(request.payload, env, false);
    const reason = DECLINE_REASONS[card.behaviour as CardBehaviour];
    if (reason) throw cardDeclined(reason);
    return card;
  }

  /** The simulator keeps no processor-side customer objects: nothing to tell it. */
  async deletePaymentMethod(): Promise<void> {
    return undefined;
  }

  async setDefaultPaymentMethod(): Promise<void> {
    return undefined;
  }

  private setupIntent(): NewIntent {
    const intentId = id('seti');
    return { kind: 'setup', status: 'requires_confirmation', intentId, clientSecret: `${intentId}_secret_${randomBytes(12).toString('hex')}`, redirectUrl: '', requiresAction: false };
  }

  async validatePayment(payload: Record<string, unknown>, env: GatewayEnvironment): Promise<void> {
    await this.cardOf(payload, env);
  }

  /** The card of a payload, of a brand the settings accept (`card_brands`; empty or unset: the default). */
  private async cardOf(payload: Record<string, unknown>, env: GatewayEnvironment, allowToken = true): Promise<CardSummary> {
    const card = await this.anyCardOf(payload, env, allowToken);
    const setting = env.settings.card_brands;
    const accepted = Array.isArray(setting) && setting.length ? setting : DEFAULT_BRANDS;
    // A number of no known brand is left to the processor (it declines it).
    if (card.brand !== 'unknown' && !accepted.includes(card.brand)) {
      throw invalidParams({ 'payment_payload.card_number': `${card.brand} cards are not accepted; use ${accepted.join(' or ')}.` });
    }
    return card;
  }

  /** The card of a payload: raw card details, a saved token or a confirmed setup intent. */
  private async anyCardOf(payload: Record<string, unknown>, env: GatewayEnvironment, allowToken: boolean): Promise<CardSummary> {
    if (payload.card_number !== undefined) return readCard(payload);
    if (allowToken && payload.token_id !== undefined) {
      const tokenId = payload.token_id;
      const numeric = typeof tokenId === 'number' ? tokenId : typeof tokenId === 'string' && /^\d{1,10}$/.test(tokenId) ? Number(tokenId) : NaN;
      if (!Number.isSafeInteger(numeric) || numeric < 1) throw invalidParams({ 'payment_payload.token_id': 'token_id must be a positive integer.' });
      const token = await env.loadToken(numeric);
      if (!token || token.gatewayId !== this.id) throw notFound('shop_payment_methods_invalid_token', 'Invalid payment method token.');
      return token.card;
    }
    if (payload.payment_method_id !== undefined) {
      const pm = payload.payment_method_id;
      if (typeof pm !== 'string' || !pm || pm.length > 100) {
        throw invalidParams({ 'payment_payload.payment_method_id': 'payment_method_id must be a setup intent id.' });
      }
      const card = await env.loadSetupIntent(pm);
      if (!card) throw invalidParams({ 'payment_payload.payment_method_id': 'Unknown or unconfirmed setup intent.' });
      return card;
    }
    throw invalidParams({
      payment_payload: allowToken
        ? 'test_card needs {card_number, exp_month, exp_year, cvc}, {token_id} or {payment_method_id}.'
        : 'test_card needs {card_number, exp_month, exp_year, cvc} or {payment_method_id}.',
    });
  }

  private charge(card: CardSummary, request: PaymentRequest, env: GatewayEnvironment): PaymentResult {
    const reason = DECLINE_REASONS[card.behaviour as CardBehaviour];
    if (reason) return this.declined(reason);
    if (card.behaviour === 'requires_action') {
      const intentId = id('pi');
      const redirect = actionStepUrl(env.siteUrl, intentId);
      return {
        result: 'success',
        outcome: 'requires_action',
        redirect,
        transactionId: '',
        declineReason: '',
        message: 'Your bank asks you to authorize this payment.',
        intent: {
          kind: 'payment',
          status: 'requires_action',
          intentId,
          clientSecret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          redirectUrl: redirect,
          requiresAction: true,
          card,
        },
        saveCard: request.savePaymentMethod && request.customerId > 0 ? card : undefined,
      };
    }
    return {
      result: 'success',
      outcome: 'paid',
      redirect: request.returnUrl,
      transactionId: id('ch'),
      declineReason: '',
      message: 'Payment complete.',
      saveCard: request.savePaymentMethod && request.customerId > 0 ? card : undefined,
    };
  }

  private declined(reason: string): PaymentResult {
    return {
      result: 'failure',
      outcome: 'declined',
      redirect: '',
      transactionId: '',
      declineReason: reason,
      message: DECLINE_MESSAGES[reason] ?? 'Your card was declined.',
    };
  }
}
