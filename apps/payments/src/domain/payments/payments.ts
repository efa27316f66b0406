import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, invalidParams } from '@storefront/errors';
import type { CallerContext } from '@storefront/grpc-client';
import {
  attemptById,
  attemptByKey,
  deleteAttempt,
  finishAttempt,
  insertAttemptReadingFailures,
  paidAttemptOfOrder,
  type AttemptRecord,
} from '../../persistence/attempts.repository';
import { findIntent, insertIntent } from '../../persistence/intents.repository';
import { adoptUnkeyedRefund, findRefundByKey, insertRefund, type StoredRefund } from '../../persistence/refunds.repository';
import { insertToken, tokenOf } from '../../persistence/tokens.repository';
import type { PaymentsDeps } from '../deps';
import { idempotencyKeyReused, intentUnsupported, invalidGateway, paymentInProgress, refundUnsupported } from '../errors';
import type { GatewayCatalog, GatewayView } from '../gateways/gateway-catalog';
import type { GatewayEnvironment, NewIntent, PaymentOutcome, PaymentResult } from '../gateways/gateway';
import { amountToMinor, checkCurrency } from './amounts';
import type { CardTestingDefence } from './card-testing';

export interface ProcessPaymentInput {
  orderId: number;
  orderKey: string;
  gatewayId: string;
  amount: string;
  currency: string;
  customerId: number;
  paymentPayloadJson: string;
  /** Recovery: replay the attempt under the key whatever its payload (see ProcessPaymentRequest.settle_by_key). */
  settleByKey?: boolean;
  idempotencyKey: string;
  clientIp: string;
  returnUrl: string;
  hasSubscription: boolean;
  savePaymentMethod: boolean;
}

export interface ProcessPaymentOutput {
  outcome: PaymentOutcome;
  transactionId: string;
  redirectUrl: string;
  intentId: string;
  clientSecret: string;
  declineReason: string;
  message: string;
  gatewayTitle: string;
  replayed: boolean;
  paymentId: string;
}

const MAX_PAYLOAD_BYTES = 16 * 1024;
const MAX_KEY_LENGTH = 255;
const FAILED: ReadonlySet<string> = new Set(['declined', 'failed']);

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `payment_payload` JSON -> object; 400 rest_invalid_param for anything else. */
export function parsePayload(json: string, field = 'payment_payload'): Record<string, unknown> {
  if (!json) return {};
  if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) throw invalidParams({ [field]: `${field} is too large.` });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalidParams({ [field]: `${field} must be a JSON object.` });
  }
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams({ [field]: `${field} must be an object.` });
  return value as Record<string, unknown>;
}

/** Runs gateways for orders, records every attempt, replays by idempotency key, refunds. */
export class Payments {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly catalog: GatewayCatalog,
    private readonly defence: CardTestingDefence,
  ) {}

  /** What a gateway may read while it runs (no I/O inside gateways themselves). */
  environment(view: GatewayView, customerId: number, siteUrl: string): GatewayEnvironment {
    const db = this.deps.db;
    return {
      settings: view.settings,
      siteUrl,
      loadToken: (id) => (customerId > 0 ? tokenOf(db.em(), customerId, id) : Promise.resolve(undefined)),
      async loadSetupIntent(intentId) {
        const intent = await findIntent(db.em(), intentId);
        if (!intent || intent.kind !== 'setup' || intent.status !== 'succeeded') return undefined;
        if (intent.customerId !== 0 && intent.customerId !== customerId) return undefined;
        return intent.card;
      },
    };
  }

  async process(input: ProcessPaymentInput, caller: CallerContext): Promise<ProcessPaymentOutput> {
    const problems: Record<string, string> = {};
    if (!Number.isSafeInteger(input.orderId) || input.orderId < 1) problems.order_id = 'order_id must be a positive integer.';
    if (input.idempotencyKey.length > MAX_KEY_LENGTH) problems.idempotency_key = 'The Idempotency-Key is too long.';
    if (Object.keys(problems).length) throw invalidParams(problems);
    const currency = checkCurrency(input.currency);
    const amountMinor = amountToMinor(input.amount, currency);
    const view = await this.catalog.availableGateway(input.gatewayId, {
      amountMinor,
      hasSubscription: input.hasSubscription,
    });
    if (!view) throw invalidGateway();
    const payload = parsePayload(input.paymentPayloadJson);
    const key = input.idempotencyKey || caller.idempotencyKey || '';
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([input.orderId, view.gateway.id, amountMinor, currency, payload]))
      .digest('hex');

    // Without a key, and when recovery settles a checkout: an order already paid (under any key) is not charged again.
    if (!key || input.settleByKey) {
      const paid = await paidAttemptOfOrder(this.deps.db.em(), input.orderId);
      if (paid) return this.replay(paid, fingerprint, false, view);
    }

    const clientIp = input.clientIp || caller.clientIp || '';
    const now = this.deps.now();
    const attempt: AttemptRecord = {
      id: newId('pay'),
      orderId: input.orderId,
      gatewayId: view.gateway.id,
      amountMinor,
      currency,
      outcome: 'processing',
      transactionId: '',
      declineReason: '',
      message: '',
      idempotencyKey: key || null,
      fingerprint,
      customerId: input.customerId,
      clientIp,
      intentId: '',
      redirectUrl: '',
      clientSecret: '',
      createdAt: now,
    };
    const request = {
      orderId: input.orderId,
      orderKey: input.orderKey,
      amountMinor,
      currency,
      customerId: input.customerId,
      payload,
      returnUrl: input.returnUrl,
      hasSubscription: input.hasSubscription,
      // The shopper's choice at checkout (`payment_payload.save_payment_method: true`), or the caller's.
      savePaymentMethod: input.savePaymentMethod || payload.save_payment_method === true,
    };
    const runGateway = async () => view.gateway.processPayment(request, this.environment(view, input.customerId, await this.deps.site.siteUrl()));
    // A gateway that settles locally runs first, so its attempt is written once, with the outcome (a
    // replay or a refusal below discards that result: nothing left the process).
    let result: PaymentResult | undefined;
    if (view.gateway.settlesLocally) {
      result = await runGateway();
      Object.assign(attempt, {
        outcome: result.outcome,
        transactionId: result.transactionId,
        declineReason: result.declineReason,
        message: result.message,
        redirectUrl: result.redirect,
      });
    }
    // The claim also reads the IP's failure window (one statement), for the rate limit below.
    const window = this.defence.windowOf(clientIp);
    let claim = await insertAttemptReadingFailures(this.deps.db.em(), attempt, window);
    for (let tries = 0; !claim.claimed && tries < 3; tries++) {
      // The key was used before, or another request with it is running: that attempt's answer.
      const previous = await attemptByKey(this.deps.db.em(), key);
      // Recovery (settle_by_key) has no payload to compare: the attempt under the key decides.
      if (previous) return this.replay(previous, fingerprint, !input.settleByKey, view);
      // The attempt that held the key was refused (rate limit) and removed meanwhile: claim the key again.
      claim = await insertAttemptReadingFailures(this.deps.db.em(), attempt, window);
    }
    if (!claim.claimed) throw paymentInProgress();
    // Rate limiting after the key is claimed, so a replay is never refused; a refused attempt leaves no row.
    // A gateway that settles locally (cod, bacs) takes no card and never declines: nothing to test, never limited.
    try {
      if (!view.gateway.settlesLocally) this.defence.refuseOver(claim);
    } catch (err) {
      await deleteAttempt(this.deps.db.em(), attempt.id);
      throw err;
    }

    const answer =
      result ??
      (await runGateway().catch(async (err: unknown) => {
        // Not an attempt (bad payload, unknown token): the key stays usable.
        await deleteAttempt(this.deps.db.em(), attempt.id);
        throw err;
      }));

    const intent: NewIntent | undefined = answer.intent;
    const saveCard = Boolean(answer.saveCard && view.savedCards && input.customerId > 0 && answer.outcome === 'paid');
    const finish = async (em: EntityManager) => {
      await finishAttempt(
        em,
        attempt.id,
        {
          outcome: answer.outcome,
          transactionId: answer.transactionId,
          declineReason: answer.declineReason,
          message: answer.message,
          intentId: intent?.intentId ?? '',
          redirectUrl: answer.redirect,
          clientSecret: intent?.clientSecret ?? '',
        },
        now,
      );
      if (intent) await this.storeIntent(em, intent, attempt, input, now);
      if (saveCard) await insertToken(em, input.customerId, view.gateway.id, newId('tok'), answer.saveCard!, now);
      if (FAILED.has(answer.outcome)) await this.defence.recordFailure(em, clientIp);
    };
    // The attempt's outcome alone is one statement (none when the claim wrote it); with an intent, a
    // saved card or a counted failure, one transaction.
    if (intent || saveCard || FAILED.has(answer.outcome)) await this.deps.db.em().transactional(finish);
    else if (!view.gateway.settlesLocally) await finish(this.deps.db.em());
    this.deps.logger.info(
      { orderId: input.orderId, gateway: view.gateway.id, outcome: answer.outcome, paymentId: attempt.id, declineReason: answer.declineReason || undefined },
      'payment processed',
    );
    return {
      outcome: answer.outcome,
      transactionId: answer.transactionId,
      redirectUrl: answer.redirect,
      intentId: intent?.intentId ?? '',
      clientSecret: intent?.clientSecret ?? '',
      declineReason: answer.declineReason,
      message: answer.message,
      gatewayTitle: view.title,
      replayed: false,
      paymentId: attempt.id,
    };
  }

  private async storeIntent(em: EntityManager, intent: NewIntent, attempt: AttemptRecord, input: ProcessPaymentInput, now: Date) {
    await insertIntent(
      em,
      {
        id: intent.intentId,
        kind: intent.kind,
        gatewayId: attempt.gatewayId,
        orderId: attempt.orderId,
        attemptId: attempt.id,
        customerId: input.customerId,
        amountMinor: attempt.amountMinor,
        currency: attempt.currency,
        status: intent.status,
        clientSecret: intent.clientSecret,
        card: intent.card,
        returnUrl: input.returnUrl,
        expiresAt: new Date(now.getTime() + this.deps.config.INTENT_EXPIRY_SECONDS * 1000),
      },
      now,
    );
  }

  private async awaitAttempt(key: string): Promise<AttemptRecord> {
    for (let i = 0; i < 40; i++) {
      const attempt = await attemptByKey(this.deps.db.em(), key);
      if (!attempt) break;
      if (attempt.outcome !== 'processing') return attempt;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw paymentInProgress();
  }

  private async replay(previous: AttemptRecord, fingerprint: string, byKey: boolean, view: GatewayView): Promise<ProcessPaymentOutput> {
    if (byKey && previous.fingerprint !== fingerprint) throw idempotencyKeyReused();
    const attempt = previous.outcome === 'processing' ? await this.awaitAttempt(previous.idempotencyKey ?? '') : previous;
    // An action step completed since: report the attempt as it stands now.
    const current = (await attemptById(this.deps.db.em(), attempt.id)) ?? attempt;
    return {
      outcome: current.outcome as PaymentOutcome,
      transactionId: current.transactionId,
      redirectUrl: current.redirectUrl,
      intentId: current.intentId,
      clientSecret: current.clientSecret,
      declineReason: current.declineReason,
      message: current.message,
      gatewayTitle: view.title,
      replayed: true,
      paymentId: current.id,
    };
  }

  /**
   * ValidatePayment, a placement's check before any stock, coupon or order is
   * taken for it: the payload as the gateway would read it (an enabled
   * gateway; 422 otherwise), nothing charged or written, and the card-testing
   * limit of the paying IP (429 here, so a refused IP leaves no failed order behind).
   */
  async validate(input: { gatewayId: string; paymentPayloadJson: string; customerId: number }, clientIp = ''): Promise<void> {
    const view = (await this.catalog.views()).find((v) => v.gateway.id === input.gatewayId && v.enabled);
    if (!view) throw invalidGateway();
    const payload = parsePayload(input.paymentPayloadJson);
    await view.gateway.validatePayment?.(payload, this.environment(view, input.customerId, await this.deps.site.siteUrl()));
    if (!view.gateway.settlesLocally) await this.defence.check(clientIp);
  }

  /** A payment or setup intent (spec 2.11 intent payload). */
  async createIntent(
    input: { gatewayId: string; orderId: number; amount: string; currency: string; customerId: number; setup: boolean; returnUrl: string },
  ): Promise<NewIntent> {
    const view = (await this.catalog.views()).find((v) => v.gateway.id === input.gatewayId && v.enabled);
    if (!view) throw invalidGateway();
    const gateway = view.gateway;
    const create = input.setup ? (gateway.createSetupIntent ?? gateway.createIntent) : gateway.createIntent;
    if (!create) throw intentUnsupported();
    const currency = input.setup && !input.currency ? '' : checkCurrency(input.currency);
    const amountMinor = input.setup ? 0 : amountToMinor(input.amount, currency);
    const env = this.environment(view, input.customerId, await this.deps.site.siteUrl());
    const intent = await create.call(gateway, { ...input, amountMinor, currency }, env);
    const now = this.deps.now();
    await this.deps.db.em().transactional((em) =>
      insertIntent(
        em,
        {
          id: intent.intentId,
          kind: intent.kind,
          gatewayId: gateway.id,
          orderId: input.orderId,
          attemptId: '',
          customerId: input.customerId,
          amountMinor,
          currency,
          status: intent.status,
          clientSecret: intent.clientSecret,
          card: intent.card,
          returnUrl: input.returnUrl,
          expiresAt: new Date(now.getTime() + this.deps.config.INTENT_EXPIRY_SECONDS * 1000),
        },
        now,
      ),
    );
    return intent;
  }

  /**
   * Money back through the gateway. With an idempotency key the refund is made
   * once: a key already stored answers its refund (422 when it was for another
   * payment or amount), an unkeyed refund of the same payment and amount (made
   * before refunds had keys) is adopted, and the gateway gets the key too, so
   * twins racing past these checks still make one refund at the processor and
   * one row here.
   */
  async refund(input: {
    orderId: number;
    gatewayId: string;
    transactionId: string;
    amount: string;
    currency: string;
    reason: string;
    idempotencyKey: string;
  }): Promise<string> {
    const gateway = this.deps.gateways.has(input.gatewayId) ? this.deps.gateways.get(input.gatewayId) : undefined;
    // An offline gateway's money (cash, a bank transfer) goes back by hand: the refund is recorded, nothing is called.
    const manual = gateway?.settlesLocally === true && !gateway.refund;
    // A gateway no longer installed (its addon turned off) cannot refund either: the same refusal.
    if (!gateway || (!manual && (!gateway.refund || !gateway.supports.includes('refunds')))) throw refundUnsupported();
    const currency = checkCurrency(input.currency);
    const amountMinor = amountToMinor(input.amount, currency);
    const key = input.idempotencyKey;
    if (key.length > MAX_KEY_LENGTH) throw invalidParams({ idempotency_key: `idempotency_key is at most ${MAX_KEY_LENGTH} characters.` });
    const request = { orderId: input.orderId, gatewayId: gateway.id, transactionId: input.transactionId, amountMinor, currency };
    const replay = (earlier: StoredRefund) => {
      const same = (Object.keys(request) as Array<keyof typeof request>).every((k) => earlier[k] === request[k]);
      if (!same) throw idempotencyKeyReused();
      return earlier.id;
    };
    if (key) {
      const earlier = (await findRefundByKey(this.deps.db.em(), key)) ?? (await adoptUnkeyedRefund(this.deps.db.em(), key, request));
      if (earlier) return replay(earlier);
    }
    const view = (await this.catalog.views()).find((v) => v.gateway.id === gateway.id)!;
    const env = this.environment(view, 0, await this.deps.site.siteUrl());
    const reason = input.reason.split(String.fromCharCode(0)).join('').slice(0, 2000);
    const refundId = manual
      ? newId('manual_re')
      : await gateway.refund!({ orderId: input.orderId, transactionId: input.transactionId, amountMinor, currency, reason, idempotencyKey: key }, env);
    const inserted = await insertRefund(this.deps.db.em(), { id: refundId, ...request, reason, idempotencyKey: key || null }, this.deps.now());
    // A twin with this key stored its refund first: the same one at the processor, unless the twin asked for another amount.
    return inserted ? refundId : replay((await findRefundByKey(this.deps.db.em(), key))!);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return DomainError.is(err);
}
