import { DomainError } from '@storefront/errors';
import { finishCheckout, recordStep } from '../../persistence/checkouts.repository';
import type { Actor } from '../actor';
import type { CartDeps } from '../deps';
import { PAYMENT_OUTCOME_UNKNOWN, type PaymentOutcome } from '../ports';
import type { CheckoutPlan, CheckoutRecord, PaymentResultView, StoredError } from './checkout-record';

export type SagaResult = { result: PaymentResultView } | { error: StoredError };

/** Payments answers that leave the charge undecided (timed out, or still running under this key). */
const UNDECIDED = new Set([PAYMENT_OUTCOME_UNKNOWN, 'shop_payment_in_progress']);

const storedError = (err: DomainError): StoredError => ({ code: err.code, status: err.status, message: err.message, data: err.data ?? {} });

/**
 * The place-order saga (architecture.md "Place order"): reserve stock ->
 * redeem coupons -> create the order -> run the gateway -> record the result ->
 * commit, or compensate (release stock and coupons, order failed). Each step
 * is written to the saga log before it runs (`pay` covers recording its
 * result and committing: both are idempotent); no step runs inside a
 * transaction. `resume` continues a saga from its last logged step (recovery).
 */
export class CheckoutSaga {
  constructor(private readonly deps: CartDeps) {}

  /** Logs the next step (one statement: the saga row and its log entry). */
  private async step(c: CheckoutRecord, step: string, changes: NonNullable<Parameters<typeof recordStep>[4]> = {}) {
    c.step = step;
    await recordStep(this.deps.db.reader, c.id, step, this.deps.now(), changes);
  }

  /**
   * Closes the saga and, in the same statement, the cart: emptied after a
   * placement, or (a failed attempt) given a new revision so the customer's
   * retry is a new checkout, not a replay.
   */
  private async finish(c: CheckoutRecord, outcome: SagaResult, cartChange: 'clear' | 'bump' | 'none'): Promise<SagaResult> {
    const status = 'error' in outcome ? 'failed' : outcome.result.requiresAction ? 'action' : 'succeeded';
    const cart = c.cartId && cartChange !== 'none' ? { id: c.cartId, revision: c.cartRevision, change: cartChange, orderId: c.orderId } : undefined;
    await finishCheckout(this.deps.db.reader, c.id, status, outcome as Record<string, unknown>, this.deps.now(), cart);
    c.status = status;
    c.outcome = outcome;
    return outcome;
  }

  /** Runs a fresh saga (payload: the REST payment_payload; never stored). */
  async run(c: CheckoutRecord, actor: Actor, payloadJson: string): Promise<SagaResult> {
    const plan = c.plan;
    const { catalog, orders } = this.deps;
    try {
      if (plan.stockLines.length) {
        await catalog.reserveStock(c.id, plan.stockLines, this.deps.config.CHECKOUT_RESERVATION_TTL_SECONDS);
      }
    } catch (err) {
      if (DomainError.is(err) && err.status < 500) {
        const e = err.code === 'shop_stock_insufficient' ? insufficientStock(err) : err;
        return this.finish(c, { error: storedError(e) }, 'bump');
      }
      return this.compensateAndFail(c, actor, err);
    }
    // Without coupons there is nothing to redeem: the next logged step is the order.
    if (plan.couponCodes.length) {
      await this.step(c, 'redeem');
      try {
        await catalog.redeemCoupons({
          key: c.checkoutKey,
          orderId: 0,
          customerId: plan.customerId,
          email: plan.email,
          codes: plan.couponCodes,
          reservationId: reservationOf(c),
        });
      } catch (err) {
        if (DomainError.is(err) && err.status === 501) {
          this.deps.logger.warn('catalog cannot redeem coupons yet; usage limits were checked at apply only');
        } else return this.compensateAndFail(c, actor, err);
      }
    }
    await this.step(c, 'create_order');
    try {
      const order = await orders!.createOrder({ ...plan.order!, reservationId: reservationOf(c) }, actor);
      c.orderId = order.id;
      c.orderKey = order.orderKey;
    } catch (err) {
      return this.compensateAndFail(c, actor, err);
    }
    await this.step(c, 'pay', { orderId: c.orderId, orderKey: c.orderKey });
    return this.pay(c, actor, payloadJson);
  }

  /**
   * pay-order: the order exists; only the gateway and its result remain. A
   * failed order first takes again the stock and coupon uses its failure gave
   * back, checked as at place (a shortage or a spent coupon refuses the
   * payment and leaves the order as it was).
   */
  async payExisting(c: CheckoutRecord, actor: Actor, payloadJson: string): Promise<SagaResult> {
    const retake = c.plan.retake;
    if (retake && c.step === 'reserve') {
      try {
        await this.deps.catalog.renewReservation(retake.reservationId, this.deps.config.CHECKOUT_RESERVATION_TTL_SECONDS).catch((err: unknown) => {
          // Its checkout took coupon uses only: there is no stock to take.
          if (!(DomainError.is(err) && err.code === 'shop_reservation_not_found')) throw err;
        });
        if (retake.couponCodes.length) {
          const { customerId, email, couponCodes: codes, reservationId } = retake;
          await this.deps.catalog.redeemCoupons({ key: c.checkoutKey, orderId: c.orderId, customerId, email, codes, reservationId });
        }
      } catch (err) {
        if (!(DomainError.is(err) && err.status < 500)) return this.compensateAndFail(c, actor, err);
        await this.compensate(c);
        return this.finish(c, { error: storedError(err.code === 'shop_stock_insufficient' ? insufficientStock(err) : err) }, 'none');
      }
      await this.step(c, 'pay');
    }
    return this.pay(c, actor, payloadJson);
  }

  private async pay(c: CheckoutRecord, actor: Actor, payloadJson: string, settleByKey = false): Promise<SagaResult> {
    const plan = c.plan;
    let payment: PaymentOutcome;
    try {
      payment = await this.deps.payments!.processPayment(
        {
          orderId: c.orderId,
          orderKey: c.orderKey,
          gatewayId: c.paymentMethod,
          amount: plan.amount,
          currency: plan.currency,
          customerId: plan.customerId,
          payloadJson,
          idempotencyKey: c.checkoutKey,
          clientIp: plan.clientIp,
          returnUrl: plan.returnUrl,
          hasSubscription: plan.hasSubscription,
          settleByKey,
        },
        actor,
      );
    } catch (err) {
      if (DomainError.is(err) && UNDECIDED.has(err.code)) return this.keepPending(c, err);
      // pay-order: payments refused the request before any charge (a bad payload, someone else's
      // token, the rate limit); the order stays as it was, payable again.
      if (c.kind === 'pay' && DomainError.is(err) && err.status < 500) return this.finish(c, { error: storedError(err) }, 'none');
      return this.compensateAndFail(c, actor, err);
    }
    plan.payment = {
      outcome: payment.outcome,
      transactionId: payment.transactionId,
      redirectUrl: payment.redirectUrl,
      intentId: payment.intentId,
      clientSecret: payment.clientSecret,
      message: payment.message || payment.declineReason,
      gatewayTitle: payment.gatewayTitle,
    };
    // No log entry for `record`: a saga interrupted from here on resumes at `pay`, where payments
    // replays this attempt's outcome under the same idempotency key, and recording it is idempotent.
    return this.record(c, actor);
  }

  /**
   * The payment's fate is unknown (a timeout is not "unreachable": the card may
   * have been charged). Nothing is compensated; the saga stays open at `pay`,
   * the order `pending_payment`, and the lease is let go so the customer's
   * retry of the same request (same checkout key -> same payments idempotency
   * key) or the recovery job settles it without a second charge.
   */
  private async keepPending(c: CheckoutRecord, err: DomainError): Promise<SagaResult> {
    this.deps.logger.warn({ checkout: c.id, order: c.orderId, code: err.code }, 'payment outcome unknown; order kept pending');
    await this.step(c, 'pay', { note: err.code, releaseLease: true });
    const message = 'The payment is still being confirmed; your order is kept pending and will not be charged twice. Retry the same request to see its result.';
    return { error: { code: 'shop_payment_pending', status: 503, message, data: { order_id: c.orderId } } };
  }

  /**
   * Recovery of the pay step without the request's payload: the attempt
   * payments holds under this saga's idempotency key decides (payments writes
   * it before running the gateway, so no attempt means no charge started and
   * running it now is safe); one still running keeps the order pending.
   */
  private settlePayment(c: CheckoutRecord, actor: Actor): Promise<SagaResult> {
    return this.pay(c, actor, '', true);
  }

  private async record(c: CheckoutRecord, actor: Actor): Promise<SagaResult> {
    const plan = c.plan;
    const p = plan.payment!;
    const failed = p.outcome === 'declined' || p.outcome === 'failed';
    const outcome = failed ? 'failed' : p.outcome;
    const order = await this.deps.orders!.recordPaymentResult(
      {
        orderId: c.orderId,
        outcome,
        transactionId: p.transactionId,
        paymentMethod: c.paymentMethod,
        paymentMethodTitle: p.gatewayTitle || plan.gatewayTitle,
        message: p.message,
      },
      actor,
    );
    if (failed) {
      await this.step(c, 'compensate');
      await this.compensate(c);
      const message = p.message || 'The payment was declined.';
      return this.finish(c, { error: { code: 'shop_payment_declined', status: 402, message, data: { order_id: c.orderId, outcome: p.outcome } } }, 'bump');
    }
    const view: PaymentResultView = {
      result: 'success',
      redirect: p.outcome === 'requires_action' && p.redirectUrl ? p.redirectUrl : orderReceivedUrl(plan, c),
      orderId: c.orderId,
      orderKey: c.orderKey,
      outcome: p.outcome,
      status: order.status,
      paidStatus: order.paidStatus,
      requiresAction: p.outcome === 'requires_action',
      intentId: p.intentId,
      clientSecret: p.clientSecret,
      transactionId: p.transactionId,
      message: p.message,
      paymentMethod: c.paymentMethod,
      total: plan.amount,
      currency: plan.currency,
    };
    if (p.outcome === 'requires_action') return this.finish(c, { result: view }, 'none');
    // No `commit` log entry: a saga resumed at `record` records again (idempotent) and commits.
    // Stock lines are only a placement's, and it gets this far only with its reservation made. A paid
    // order's reservation is committed by catalog on order_paid (as for a payment recorded anywhere
    // else); one left unpaid (on_hold: a bank transfer) keeps its units by committing it here.
    const held = heldReservation(c);
    if (held && order.paidStatus !== 'paid') await this.commitUnpaid(c, held);
    return this.finish(c, { result: view }, c.kind === 'place' ? 'clear' : 'none');
  }

  /**
   * Keeps an unpaid (on-hold) order's units. A reservation that lapsed first
   * (the saga was recovered after its expiry) already gave them back: the order
   * stays on hold without held stock, and its payment, when an admin records
   * it, takes the units again (catalog on order_paid), as for any late payment.
   */
  private async commitUnpaid(c: CheckoutRecord, reservationId: string): Promise<void> {
    try {
      await this.deps.catalog.commitReservation(reservationId);
    } catch (err) {
      // not_found: a failed order paid again whose checkout held coupon uses only.
      if (DomainError.is(err) && err.code === 'shop_reservation_not_found') return;
      if (!(DomainError.is(err) && err.code === 'shop_reservation_not_active')) throw err;
      this.deps.logger.warn({ checkout: c.id, order: c.orderId }, "the on-hold order's reservation lapsed before its checkout finished; its units were given back");
    }
  }

  /** Gives back what the saga took: stock, coupon uses; the order (if any) is marked failed. */
  private async compensate(c: CheckoutRecord): Promise<void> {
    const plan = c.plan;
    const quiet = (p: Promise<unknown>, what: string) =>
      p.catch((err: unknown) => {
        // 404/409: nothing to give back (never reserved, or already settled).
        if (!(DomainError.is(err) && [404, 409, 501].includes(err.status))) throw err;
        this.deps.logger.debug({ err, what, checkout: c.id }, 'compensation step had nothing to do');
      });
    const reservation = heldReservation(c);
    if (reservation) await quiet(this.deps.catalog.releaseReservation(reservation, 'released'), 'release stock');
    if (plan.couponCodes.length || plan.retake?.couponCodes.length) await quiet(this.deps.catalog.releaseCoupons(c.checkoutKey), 'release coupons');
  }

  private async compensateAndFail(c: CheckoutRecord, actor: Actor, err: unknown): Promise<SagaResult> {
    if (!DomainError.is(err)) this.deps.logger.error({ err, checkout: c.id, step: c.step }, 'checkout step failed');
    await this.step(c, 'compensate', { note: DomainError.is(err) ? err.code : 'internal' });
    await this.compensate(c);
    if (c.orderId && this.deps.orders) {
      await this.deps.orders
        .recordPaymentResult(
          { orderId: c.orderId, outcome: 'failed', transactionId: '', paymentMethod: c.paymentMethod, paymentMethodTitle: c.plan.gatewayTitle, message: 'Checkout failed.' },
          actor,
        )
        .catch((e: unknown) => this.deps.logger.warn({ err: e, order: c.orderId }, 'could not mark the order failed; recovery retries'));
    }
    const e = DomainError.is(err) ? err : new DomainError('shop_internal_error', 500, 'Internal server error.');
    return this.finish(c, { error: storedError(e) }, 'bump');
  }

  /** Recovery: finishes or compensates a saga whose request died, from its last logged step. */
  async resume(c: CheckoutRecord, actor: Actor): Promise<SagaResult> {
    switch (c.step) {
      case 'reserve':
      case 'redeem':
        return this.compensateAndFail(c, actor, new DomainError('shop_checkout_interrupted', 503, 'The checkout was interrupted; please try again.'));
      case 'create_order': {
        // The order may or may not exist: creating it again is idempotent by the checkout key, then it is failed.
        if (this.deps.orders) {
          const order = await this.deps.orders.createOrder({ ...c.plan.order!, reservationId: reservationOf(c) }, actor);
          c.orderId = order.id;
          c.orderKey = order.orderKey;
        }
        return this.compensateAndFail(c, actor, new DomainError('shop_checkout_interrupted', 503, 'The checkout was interrupted; please try again.'));
      }
      case 'pay':
        return this.settlePayment(c, actor);
      case 'record':
      case 'commit':
        // Logged by earlier versions (before `pay` covered recording).
        return this.record(c, actor);
      default:
        await this.step(c, 'compensate');
        await this.compensate(c);
        return this.finish(c, { error: { code: 'shop_checkout_interrupted', status: 503, message: 'The checkout was interrupted; please try again.', data: {} } }, 'bump');
    }
  }
}

/**
 * catalog's shortage at reservation as the cart's own stock error: the same
 * shape as the check before it (`product_id`, `variation_id`, `available` of
 * the first line short), with every line short in `lines`.
 */
function insufficientStock(err: DomainError): DomainError {
  const lines = (err.data?.lines ?? []) as Array<{ product_id?: number; variation_id?: number; available?: number }>;
  const first = lines[0] ?? {};
  return new DomainError('shop_cart_insufficient_stock', 422, err.message, {
    product_id: first.product_id ?? 0,
    variation_id: first.variation_id ?? 0,
    available: first.available ?? 0,
    lines,
  });
}

/**
 * What the checkout took for its order, named by the saga id: the stock
 * reservation and the coupon uses. The order carries it, so catalog commits,
 * restocks and releases with the order's events (paid, failed, cancelled,
 * deleted); '' when it took neither.
 */
function reservationOf(c: CheckoutRecord): string {
  return c.plan.stockLines.length || c.plan.couponCodes.length ? c.id : '';
}

/** The stock reservation this saga holds: a placement's own (its id), or the failed order's it took again. */
function heldReservation(c: CheckoutRecord): string {
  return c.plan.retake?.reservationId ?? (c.plan.stockLines.length ? c.id : '');
}

function orderReceivedUrl(plan: CheckoutPlan, c: CheckoutRecord): string {
  const base = plan.checkoutUrl.endsWith('/') ? plan.checkoutUrl : `${plan.checkoutUrl}/`;
  return `${base}order-received/${c.orderId}/?key=${encodeURIComponent(c.orderKey)}`;
}
