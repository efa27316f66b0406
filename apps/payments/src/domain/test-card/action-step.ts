import { invalidParams } from '@storefront/errors';
import { anonymousCaller, type CallerContext } from '@storefront/grpc-client';
import { attemptById, finishAttempt, otherPaymentOfOrder } from '../../persistence/attempts.repository';
import { claimExpiredIntents, findIntent, setIntentStatus, type IntentRecord } from '../../persistence/intents.repository';
import type { PaymentsDeps } from '../deps';
import { intentExpired, intentNotFound, orderPaidIntentCanceled, paymentInProgressForOrder } from '../errors';
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
  /** requires_action | succeeded | failed | expired | canceled (the order was paid another way) */
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

/** How long another attempt of the same order still "processing" is taken to be running (not abandoned). */
const IN_FLIGHT_MS = 60_000;
/** Payments reading the order it is about to charge (any customer's: the intent names it). */
const ORDER_READER: CallerContext = { ...anonymousCaller('payments-action-step'), capabilities: ['pay_for_order'] };

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
    const approving = decision === 'approve';
    // An order paid some other way meanwhile (another card, an admin) is never charged again: asked before the
    // transaction (no remote call inside it); payments' own attempts are checked again under the order's lock.
    const paidElsewhere = approving && (await this.orderPaidMeanwhile(await this.paymentIntent(intentId)));
    const now = this.deps.now();
    const { intent, outcome, transactionId, expired } = await this.deps.db.em().transactional(async (em) => {
      const intent = await findIntent(em, intentId, true);
      if (!intent || intent.kind !== 'payment' || !intent.attemptId) throw intentNotFound();
      if (intent.status === 'canceled') throw orderPaidIntentCanceled(intent.orderId);
      if (intent.status === 'requires_action' && intent.expiresAt <= now) {
        await this.expireLocked(em, intent, now);
        return { intent, outcome: 'failed' as const, transactionId: '', expired: true };
      }
      if (intent.status === 'requires_action' && approving) {
        const other = await otherPaymentOfOrder(em, intent.orderId, intent.attemptId, new Date(now.getTime() - IN_FLIGHT_MS));
        if (other === 'processing') throw paymentInProgressForOrder();
        if (paidElsewhere || other === 'paid') {
          await this.cancelLocked(em, intent, now);
          return { intent, outcome: 'canceled' as const, transactionId: '', expired: false };
        }
      }
      if (intent.status !== 'requires_action') {
        // Already decided: the same answer again (idempotent); orders is told again below.
        const attempt = await attemptById(em, intent.attemptId);
        return { intent, outcome: FINAL[intent.status] ?? 'failed', transactionId: attempt?.transactionId ?? '', expired: intent.status !== 'succeeded' && intent.status !== 'failed' };
      }
      const transactionId = approving ? newId('ch') : '';
      await setIntentStatus(em, intent.id, approving ? 'succeeded' : 'failed', now);
      await finishAttempt(
        em,
        intent.attemptId,
        {
          outcome: approving ? 'paid' : 'failed',
          transactionId,
          declineReason: approving ? '' : 'authentication_failed',
          message: approving ? 'Payment complete.' : 'The payment was not authorized.',
          intentId: intent.id,
          redirectUrl: '',
          clientSecret: '',
        },
        now,
      );
      if (!approving) {
        // A declined authorization counts against the paying IP like any decline.
        const attempt = await attemptById(em, intent.attemptId);
        if (attempt) await this.defence.recordFailure(em, attempt.clientIp);
      }
      return { intent, outcome: approving ? ('paid' as const) : ('failed' as const), transactionId, expired: false };
    });
    if (outcome === 'canceled') throw orderPaidIntentCanceled(intent.orderId);
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

  /** Whether orders holds the intent's order as paid already (a payment recorded elsewhere). */
  private async orderPaidMeanwhile(intent: IntentRecord): Promise<boolean> {
    if (!this.deps.orders || !intent.orderId || intent.status !== 'requires_action') return false;
    const order = await this.deps.orders.getOrderForPayment(intent.orderId, '', ORDER_READER);
    return order.paidStatus !== 'unpaid';
  }

  /** The order was paid another way: this authorization is canceled, its card never charged. */
  private async cancelLocked(em: Parameters<typeof setIntentStatus>[0], intent: IntentRecord, now: Date) {
    await setIntentStatus(em, intent.id, 'canceled', now);
    await finishAttempt(
      em,
      intent.attemptId,
      { outcome: 'failed', transactionId: '', declineReason: 'order_already_paid', message: 'The order was already paid; this payment was canceled.', intentId: intent.id, redirectUrl: '', clientSecret: '' },
      now,
    );
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
