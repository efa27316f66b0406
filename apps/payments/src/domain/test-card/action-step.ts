import { invalidParams } from '@storefront/errors';
import { anonymousCaller, type CallerContext } from '@storefront/grpc-client';
import { attemptById, finishAttempt } from '../../persistence/attempts.repository';
import { claimExpiredIntents, findIntent, setIntentStatus, type IntentRecord } from '../../persistence/intents.repository';
import type { PaymentsDeps } from '../deps';
import { intentExpired, intentNotFound } from '../errors';
import { displayedTitle } from '../gateways/availability';
import { minorToAmount } from '../payments/amounts';
import { newId } from '../payments/payments';
import type { CardTestingDefence } from '../payments/card-testing';
import type { GatewaySettingsStore } from '../settings/gateway-settings';
import type { OrderForPayment } from '../ports';

export interface ActionStepView {
  intentId: string;
  orderId: number;
  amount: string;
  currency: string;
  /** requires_action | succeeded | failed | expired */
  status: string;
  brand: string;
  last4: string;
  storeName: string;
  returnUrl: string;
}

export interface ActionStepResult {
  orderId: number;
  status: string;
  paidStatus: string;
  outcome: 'paid' | 'failed';
  returnUrl: string;
}

const FINAL: Record<string, 'paid' | 'failed'> = { succeeded: 'paid', failed: 'failed', expired: 'failed', expiring: 'failed' };

/**
 * The test_card action step (its 3-D Secure page): shows a payment intent
 * that requires action, and approves or declines it. The outcome is recorded
 * at orders synchronously (RecordPaymentResult); an intent left unconfirmed
 * past its expiry fails by itself (`sweepExpired`, run by a job).
 */
export class ActionStep {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly settings: GatewaySettingsStore,
    private readonly defence: CardTestingDefence,
  ) {}

  async view(intentId: string): Promise<ActionStepView> {
    const intent = await this.paymentIntent(intentId);
    const expired = intent.status === 'requires_action' && intent.expiresAt <= this.deps.now();
    return {
      intentId: intent.id,
      orderId: intent.orderId,
      amount: minorToAmount(intent.amountMinor, intent.currency),
      currency: intent.currency,
      status: expired || intent.status === 'expiring' ? 'expired' : intent.status,
      brand: intent.card?.brand ?? '',
      last4: intent.card?.last4 ?? '',
      storeName: await this.deps.site.storeName(),
      returnUrl: intent.returnUrl,
    };
  }

  async complete(intentId: string, decision: string, caller: CallerContext): Promise<ActionStepResult> {
    if (decision !== 'approve' && decision !== 'decline') throw invalidParams({ outcome: 'outcome must be approve or decline.' });
    const now = this.deps.now();
    const { intent, outcome, transactionId, expired } = await this.deps.db.em().transactional(async (em) => {
      const intent = await findIntent(em, intentId, true);
      if (!intent || intent.kind !== 'payment' || !intent.attemptId) throw intentNotFound();
      if (intent.status === 'requires_action' && intent.expiresAt <= now) {
        await this.expireLocked(em, intent, now);
        return { intent, outcome: 'failed' as const, transactionId: '', expired: true };
      }
      if (intent.status !== 'requires_action') {
        // Already decided: the same answer again (idempotent); orders is told again below.
        const attempt = await attemptById(em, intent.attemptId);
        return { intent, outcome: FINAL[intent.status] ?? 'failed', transactionId: attempt?.transactionId ?? '', expired: intent.status !== 'succeeded' && intent.status !== 'failed' };
      }
      const approved = decision === 'approve';
      const transactionId = approved ? newId('ch') : '';
      await setIntentStatus(em, intent.id, approved ? 'succeeded' : 'failed', now);
      await finishAttempt(
        em,
        intent.attemptId,
        {
          outcome: approved ? 'paid' : 'failed',
          transactionId,
          declineReason: approved ? '' : 'authentication_failed',
          message: approved ? 'Payment complete.' : 'The payment was not authorized.',
          intentId: intent.id,
          redirectUrl: '',
          clientSecret: '',
        },
        now,
      );
      if (!approved) {
        // A declined authorization counts against the paying IP like any decline.
        const attempt = await attemptById(em, intent.attemptId);
        if (attempt) await this.defence.recordFailure(em, attempt.clientIp);
      }
      return { intent, outcome: approved ? ('paid' as const) : ('failed' as const), transactionId, expired: false };
    });
    const order = await this.record(intent, outcome, transactionId, caller);
    if (expired) {
      if (intent.status !== 'expired') {
        await this.deps.db.em().transactional((em) => setIntentStatus(em, intent.id, 'expired', this.deps.now()));
      }
      throw intentExpired();
    }
    return {
      orderId: intent.orderId,
      status: order?.status ?? (outcome === 'paid' ? 'processing' : 'failed'),
      paidStatus: order?.paidStatus ?? (outcome === 'paid' ? 'paid' : 'unpaid'),
      outcome,
      returnUrl: intent.returnUrl,
    };
  }

  /** Fails intents left unconfirmed past their expiry; returns how many were recorded at orders. */
  async sweepExpired(limit = 50): Promise<number> {
    const now = this.deps.now();
    const claimed = await this.deps.db.em().transactional(async (em) => {
      const intents = await claimExpiredIntents(em, now, limit);
      for (const intent of intents) if (intent.status === 'requires_action') await this.expireLocked(em, intent, now);
      return intents;
    });
    let recorded = 0;
    for (const intent of claimed) {
      try {
        await this.record(intent, 'failed', '', anonymousCaller('intent-expiry'));
        await this.deps.db.em().transactional((em) => setIntentStatus(em, intent.id, 'expired', this.deps.now()));
        recorded++;
      } catch (err) {
        // Stays `expiring`: the next sweep tells orders again.
        this.deps.logger.warn({ err, intentId: intent.id, orderId: intent.orderId }, 'expired intent not yet recorded at orders');
      }
    }
    return recorded;
  }

  private async expireLocked(em: Parameters<typeof setIntentStatus>[0], intent: IntentRecord, now: Date) {
    await setIntentStatus(em, intent.id, 'expiring', now);
    if (intent.attemptId) {
      await finishAttempt(
        em,
        intent.attemptId,
        { outcome: 'failed', transactionId: '', declineReason: 'intent_expired', message: 'The payment authorization expired.', intentId: intent.id, redirectUrl: '', clientSecret: '' },
        now,
      );
    }
  }

  private async record(intent: IntentRecord, outcome: 'paid' | 'failed', transactionId: string, caller: CallerContext): Promise<OrderForPayment | undefined> {
    if (!this.deps.orders || !intent.orderId) return undefined;
    const gateway = this.deps.gateways.get(intent.gatewayId);
    const title = gateway ? displayedTitle(gateway, await this.settings.effective(gateway)) : intent.gatewayId;
    return this.deps.orders.recordPaymentResult(
      {
        orderId: intent.orderId,
        outcome,
        transactionId,
        paymentMethod: intent.gatewayId,
        paymentMethodTitle: title,
        message: outcome === 'paid' ? 'Payment authorized.' : 'Payment not authorized.',
      },
      caller,
    );
  }

  private async paymentIntent(intentId: string): Promise<IntentRecord> {
    if (!intentId || intentId.length > 60) throw intentNotFound();
    const intent = await findIntent(this.deps.db.em(), intentId);
    if (!intent || intent.kind !== 'payment' || !intent.attemptId) throw intentNotFound();
    return intent;
  }
}
