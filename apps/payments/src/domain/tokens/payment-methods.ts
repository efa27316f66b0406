import { DomainError, invalidParams, missingParams, replayedError, requestFingerprint } from '@storefront/errors';
import type { CallerContext } from '@storefront/grpc-client';
import { findResponse, storeResponse } from '../../persistence/idempotency.repository';
import { claimSetupIntentToken, findIntent, setIntentStatus } from '../../persistence/intents.repository';
import { deleteToken, insertToken, makeDefault, tokenOf, tokensOf, type TokenRecord } from '../../persistence/tokens.repository';
import type { PaymentsDeps } from '../deps';
import {
  cardGatewayInactive,
  idempotencyKeyReused,
  invalidToken,
  loginRequired,
  paymentMethodsUnsupported,
  setupUnsupported,
} from '../errors';
import type { GatewayCatalog } from '../gateways/gateway-catalog';
import { supportsTokens, type StoredToken } from '../gateways/gateway';
import { displayName } from '../test-card/cards';
import type { CardTestingDefence } from '../payments/card-testing';
import { newId, parsePayload, type Payments } from '../payments/payments';

/** The card addon's gateway: the only one with setup intents (spec 4.12). */
export const CARD_GATEWAY_ID = 'test_card';
const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface TokenView {
  id: number;
  gateway: string;
  displayName: string;
  isDefault: boolean;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}

const unusableSetupIntent = () =>
  invalidParams({ 'payment_payload.payment_method_id': 'Unknown, foreign or already used setup intent.' });

export function tokenView(t: StoredToken & { createdAt?: Date }): TokenView {
  return {
    id: t.id,
    gateway: t.gatewayId,
    displayName: displayName(t.card),
    isDefault: t.isDefault,
    brand: t.card.brand,
    last4: t.card.last4,
    expMonth: t.card.expMonth,
    expYear: t.card.expYear,
    createdAt: t.createdAt ? t.createdAt.toISOString() : '',
  };
}

export interface AddResult {
  result: 'success';
  token: TokenView;
  message: string;
  replayed: boolean;
}

function customerOf(caller: CallerContext): number {
  if (caller.userId <= 0) throw loginRequired();
  return caller.userId;
}

/** Saved payment methods (spec 4.12 and me/payment-methods), delegated to the owning gateway. */
export class PaymentMethods {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly catalog: GatewayCatalog,
    private readonly payments: Payments,
    private readonly defence: CardTestingDefence,
  ) {}

  async list(caller: CallerContext): Promise<TokenView[]> {
    return (await tokensOf(this.deps.db.em(), customerOf(caller))).map(tokenView);
  }

  async add(
    input: { paymentMethod: string; payloadJson: string; fieldsJson: string; idempotencyKey: string; clientIp: string },
    caller: CallerContext,
  ): Promise<AddResult> {
    const customerId = customerOf(caller);
    if (!input.paymentMethod) throw missingParams(['payment_method']);
    const payload = parsePayload(input.payloadJson);
    const fields = parsePayload(input.fieldsJson, 'fields');
    const key = input.idempotencyKey || caller.idempotencyKey || '';
    // Keys sorted: the same body with its keys in another order is the same request.
    const fingerprint = requestFingerprint([input.paymentMethod, payload, fields]);
    if (key) {
      const stored = await findResponse(this.deps.db.em(), customerId, key, IDEMPOTENCY_TTL_SECONDS);
      if (stored) {
        if (stored.fingerprint !== fingerprint) throw idempotencyKeyReused();
        return replayStored(stored.response);
      }
    }
    const view = (await this.catalog.views()).find((v) => v.gateway.id === input.paymentMethod && v.enabled);
    if (!view || !view.savedCards || !supportsTokens(view.gateway) || !view.gateway.addPaymentMethod) throw paymentMethodsUnsupported();
    const clientIp = input.clientIp || caller.clientIp || '';
    await this.defence.check(clientIp);
    const setupId = typeof payload.payment_method_id === 'string' ? payload.payment_method_id : '';
    if (setupId) {
      // A setup intent confirmed with card details here, or earlier (then it holds the card).
      const intent = await findIntent(this.deps.db.em(), setupId);
      const usable = intent && intent.kind === 'setup' && intent.customerId === customerId && intent.gatewayId === view.gateway.id;
      const expected = payload.card_number !== undefined ? 'requires_confirmation' : 'succeeded';
      if (!usable || intent.status !== expected) {
        throw unusableSetupIntent();
      }
      // Saved already: the same card is not saved twice; the answer is the token it made.
      if (intent.tokenId) {
        const saved = await tokenOf(this.deps.db.em(), customerId, intent.tokenId);
        if (!saved) throw unusableSetupIntent();
        return { result: 'success', token: tokenView(saved), message: 'Payment method added.', replayed: false };
      }
    }

    const env = this.payments.environment(view, customerId, await this.deps.site.siteUrl());
    view.gateway.validateFields?.(fields, env);
    let card;
    try {
      card = await view.gateway.addPaymentMethod({ customerId, payload, fields }, env);
    } catch (err) {
      if (DomainError.is(err) && err.code === 'shop_payment_method_declined') {
        // The decline is this key's first answer: a retry with the key hears it again (no second
        // attempt at the processor, no second failure counted against the client).
        await this.deps.db.em().transactional(async (em) => {
          await this.defence.recordFailure(em, clientIp);
          if (key) await storeResponse(em, customerId, key, fingerprint, { error: { code: err.code, status: err.status, message: err.message, data: err.data } }, IDEMPOTENCY_TTL_SECONDS);
        });
      }
      throw err;
    }
    const now = this.deps.now();
    const outcome = await this.deps.db.em().transactional(async (em) => {
      const token = await insertToken(em, customerId, view.gateway.id, newId('tok'), card, now);
      if (setupId) {
        await setIntentStatus(em, setupId, 'succeeded', now, card);
        if (!(await claimSetupIntentToken(em, setupId, token.id))) {
          throw unusableSetupIntent();
        }
      }
      const result: AddResult = { result: 'success', token: tokenView(token), message: 'Payment method added.', replayed: false };
      if (key && !(await storeResponse(em, customerId, key, fingerprint, result, IDEMPOTENCY_TTL_SECONDS))) {
        return undefined; // a concurrent request with the same key won: roll back ours
      }
      return result;
    });
    if (!outcome) {
      const stored = await findResponse(this.deps.db.em(), customerId, key, IDEMPOTENCY_TTL_SECONDS);
      if (!stored || stored.fingerprint !== fingerprint) throw idempotencyKeyReused();
      return replayStored(stored.response);
    }
    return outcome;
  }

  /** `{client_secret, intent_id, mode: 'setup'}` from the card gateway. */
  async setupIntent(input: { paymentMethod: string; returnUrl: string }, caller: CallerContext) {
    const customerId = customerOf(caller);
    if (!input.paymentMethod) throw missingParams(['payment_method']);
    if (input.paymentMethod !== CARD_GATEWAY_ID) throw setupUnsupported();
    const view = this.deps.gateways.has(CARD_GATEWAY_ID)
      ? (await this.catalog.views()).find((v) => v.gateway.id === CARD_GATEWAY_ID)
      : undefined;
    if (!view || !view.enabled) throw cardGatewayInactive();
    // Saved cards switched off: the card a setup intent confirms could never be saved (as POST /payment-methods).
    if (!view.savedCards) throw paymentMethodsUnsupported();
    const intent = await this.payments.createIntent({
      gatewayId: CARD_GATEWAY_ID,
      orderId: 0,
      amount: '0',
      currency: '',
      customerId,
      setup: true,
      returnUrl: input.returnUrl,
    });
    return { clientSecret: intent.clientSecret, intentId: intent.intentId, mode: 'setup' };
  }

  async delete(tokenId: number, caller: CallerContext): Promise<void> {
    const customerId = customerOf(caller);
    await this.withToken(customerId, tokenId, async (token) => {
      const gateway = this.deps.gateways.get(token.gatewayId);
      if (gateway?.deletePaymentMethod) await gateway.deletePaymentMethod(token, await this.envFor(token, customerId));
      await this.deps.db.em().transactional((em) => deleteToken(em, customerId, tokenId));
    });
  }

  async setDefault(tokenId: number, caller: CallerContext): Promise<void> {
    const customerId = customerOf(caller);
    await this.withToken(customerId, tokenId, async (token) => {
      const gateway = this.deps.gateways.get(token.gatewayId);
      if (gateway?.setDefaultPaymentMethod) await gateway.setDefaultPaymentMethod(token, await this.envFor(token, customerId));
      await this.deps.db.em().transactional((em) => makeDefault(em, customerId, tokenId));
    });
  }

  private async withToken(customerId: number, tokenId: number, run: (token: TokenRecord) => Promise<void>): Promise<void> {
    if (!Number.isSafeInteger(tokenId) || tokenId < 1) throw invalidToken();
    const token = await tokenOf(this.deps.db.em(), customerId, tokenId);
    if (!token) throw invalidToken();
    await run(token);
  }

  private async envFor(token: TokenRecord, customerId: number) {
    const view = (await this.catalog.views()).find((v) => v.gateway.id === token.gatewayId)!;
    return this.payments.environment(view, customerId, await this.deps.site.siteUrl());
  }
}

/** A stored first answer of an Idempotency-Key again: the result, or the decline it was. */
function replayStored(response: Record<string, unknown>): AddResult {
  const error = response.error as { code: string; status: number; message: string; data: Record<string, unknown> } | undefined;
  if (error) throw replayedError(new DomainError(error.code, error.status, error.message, error.data ?? {}));
  return { ...(response as unknown as AddResult), replayed: true };
}
