import { createHash, randomUUID } from 'node:crypto';
import { DomainError, invalidParams, replayedError, unprocessable } from '@storefront/errors';
import { findCheckoutByKey, findPlacementOfCart, insertCheckout, leaseCheckout, retireCheckoutKey } from '../../persistence/checkouts.repository';
import type { CartRecord } from '../../persistence/cart-record';
import type { Actor } from '../actor';
import { assertStock } from '../cart/stock-rules';
import type { CartDeps } from '../deps';
import type { Carts } from '../cart/carts';
import type { CartPricer } from '../pricing/cart-pricer';
import type { CartSessions, SessionOutcome } from '../sessions/cart-sessions';
import type { CheckoutStates } from './checkout-state';
import type { CheckoutPlan, CheckoutRecord, PaymentResultView } from './checkout-record';
import { fieldErrors, fieldShapeProblems, requiredProblems, shipsElsewhere, stateProblems } from './fields';
import { orderPlan } from './order-plan';
import type { CheckoutSaga, SagaResult } from './saga';

const DAY_MS = 24 * 3600 * 1000;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export interface PlaceInput {
  fields: Record<string, string>;
  paymentMethod: string;
  payloadJson: string;
  requestHash: string;
}

export interface PlaceOutcome {
  result: PaymentResultView;
  replayed: boolean;
  session: SessionOutcome;
}

export function requireCheckoutServices(deps: CartDeps) {
  if (!deps.payments || !deps.orders) {
    throw new DomainError('shop_service_unavailable', 503, 'Checkout is not available: payments or orders is not configured.', {});
  }
}

/** A stored saga result as the caller sees it: the result, or the first error again (`replayed`: marked as a replay). */
export function unwrap(outcome: SagaResult | null | undefined, replayed = false): PaymentResultView {
  if (outcome && 'error' in outcome && outcome.error) {
    const e = outcome.error;
    const err = new DomainError(e.code, e.status, e.message, e.data);
    throw replayed ? replayedError(err) : err;
  }
  if (!outcome || !('result' in outcome)) throw new DomainError('shop_checkout_in_progress', 409, 'This checkout is still being processed; retry shortly.');
  return outcome.result;
}

/**
 * POST /checkout/place: validates, recalculates against the submitted address,
 * and runs the saga once per checkout key. The key is the caller's
 * Idempotency-Key (scoped to the caller), or derived from the cart, its
 * revision and the request, so a double submit or a second tab makes one order.
 */
export class PlaceOrder {
  constructor(
    private readonly deps: CartDeps,
    private readonly sessions: CartSessions,
    private readonly pricer: CartPricer,
    private readonly carts: Carts,
    private readonly states: CheckoutStates,
    private readonly saga: CheckoutSaga,
  ) {}

  async place(actor: Actor, token: string, input: PlaceInput): Promise<PlaceOutcome> {
    const shape = fieldShapeProblems(input.fields);
    if (Object.keys(shape).length) throw invalidParams(shape);
    if (!input.paymentMethod || input.paymentMethod.length > 64) throw invalidParams({ payment_method: 'payment_method is required.' });
    requireCheckoutServices(this.deps);
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    const owner = actor.userId ? `u${actor.userId}` : `c${cart.id || token}`;
    const key = actor.idempotencyKey
      ? sha(`place|key|${owner}|${actor.idempotencyKey}`)
      : sha(`place|auto|${cart.id}|${cart.revision}|${input.requestHash}`);
    // The usual request is a new checkout: its key is not looked up first (the insert below finds a
    // twin). A retry of a finished or running checkout fails a check here instead (its cart emptied,
    // its stock or coupon uses held by that checkout itself): then the key decides, and its result
    // is replayed (or 422 for a changed body) instead of the refusal.
    let plan: CheckoutPlan;
    let gateway: { id: string };
    try {
      ({ plan, gateway } = await this.prepare(actor, cart, key, input));
    } catch (err) {
      const previous = await this.previous(key, input.requestHash).catch((lookupErr: unknown) => {
        // A changed body under the same key is the answer; a failed lookup must not hide the refusal.
        if (DomainError.is(lookupErr) && lookupErr.code === 'shop_idempotency_key_reused') throw lookupErr;
        this.deps.logger.warn({ err: lookupErr }, 'checkout key lookup failed after a refused placement');
        throw err;
      });
      if (previous) return { result: await this.replayOrSettle(previous, actor, input.payloadJson), replayed: true, session };
      throw err;
    }

    const checkout: CheckoutRecord = {
      id: randomUUID(),
      checkoutKey: key,
      kind: 'place',
      cartId: cart.id,
      cartRevision: cart.revision,
      customerId: actor.userId,
      requestHash: input.requestHash,
      status: 'open',
      step: 'reserve',
      paymentMethod: gateway.id,
      orderId: 0,
      orderKey: '',
      plan,
      outcome: null,
      createdAt: this.deps.now(),
    };
    const now = this.deps.now();
    const lease = new Date(now.getTime() + this.deps.config.CHECKOUT_RECOVERY_AFTER_SECONDS * 1000);
    let inserted = await insertCheckout(this.deps.db.reader, checkout, lease, now);
    if (!inserted) {
      const twin = await this.previous(key, input.requestHash);
      if (twin) return { result: await this.replayOrSettle(twin, actor, input.payloadJson), replayed: true, session };
      // Another request placed (or is placing) this very cart under another key (a second tab, a
      // client that makes a key per click): one order per cart, so that placement answers.
      const sibling = await findPlacementOfCart(this.deps.db.reader, cart.id, cart.revision);
      if (sibling) return { result: await this.replay(sibling), replayed: true, session };
      // Its earlier checkout was over a day old and has just been retired: this one takes the key.
      inserted = await insertCheckout(this.deps.db.reader, checkout, lease, now);
      if (!inserted) throw new DomainError('shop_checkout_in_progress', 409, 'This checkout is still being processed; retry shortly.');
    }
    return { result: unwrap(await this.saga.run(checkout, actor, input.payloadJson)), replayed: false, session };
  }

  /** Prices the cart against the submitted fields and checks everything a placement needs; the plan of its order. */
  private async prepare(actor: Actor, cart: CartRecord, key: string, input: PlaceInput): Promise<{ plan: CheckoutPlan; gateway: { id: string } }> {
    if (!cart.lines.length) throw unprocessable('shop_cart_empty', 'Your cart is empty.');
    const fields = { ...cart.fields, ...input.fields };
    const lookups = await this.pricer.lookup(cart.lines);
    const snapshot = await this.pricer.price(cart, actor, { lookups, fields });
    // Items no longer sold (unpublished, deleted, their price gone) are left out of the snapshot, as
    // every read of the cart shows it: the order is what was displayed, and placing it clears them too.
    if (!snapshot.lines.length) throw unprocessable('shop_cart_empty', 'None of the items in your cart can still be bought.');
    if (snapshot.notices.length && cart.coupons.length !== snapshot.coupons.length) {
      // A coupon that stopped qualifying is refused once, saying why, and taken off the cart
      // (as the host platform does), so the retry places at the total the cart now shows.
      const kept = new Set(snapshot.coupons.map((c) => c.code));
      await this.carts.write(cart.id, async (_em, locked) => ({ coupons: locked.coupons.filter((c) => kept.has(c)), bump: true }));
      throw unprocessable('shop_coupon_invalid', snapshot.notices.find((n) => /coupon/i.test(n)) ?? snapshot.notices[0]);
    }
    // The gateway first: an unknown one is the contract's 422 shop_checkout_invalid_gateway whatever else is wrong.
    const gateways = await this.states.availableGateways(actor, snapshot);
    const gateway = gateways.find((g) => g.id === input.paymentMethod);
    if (!gateway) throw unprocessable('shop_checkout_invalid_gateway', `"${input.paymentMethod}" is not an available payment method.`);
    const problems = {
      ...requiredProblems(fields, snapshot.needsShipping, this.deps.config.CHECKOUT_TERMS_REQUIRED),
      ...(await stateProblems(fields, this.deps.regions, shipsElsewhere(fields, snapshot.needsShipping) ? ['billing', 'shipping'] : ['billing'], true)),
    };
    if (Object.keys(problems).length) throw fieldErrors(problems);
    for (const l of snapshot.lines) assertStock(l, l.quantity);
    // A gateway that reads a payload (a card) checks it now, before stock, coupons or an order are taken for it.
    if (gateway.hasFields) {
      await this.deps.payments!.validatePayment({ gatewayId: gateway.id, payloadJson: input.payloadJson, customerId: actor.userId }, actor);
    }

    const plan = orderPlan({
      snapshot,
      fields,
      actor,
      checkoutKey: key,
      paymentMethod: gateway.id,
      gatewayTitle: gateway.title,
      draftOrderId: cart.draftOrderId,
      status: 'pending_payment',
    });
    return { plan, gateway };
  }

  /** The earlier checkout of this key within 24 h (422 when the body differs); older keys are retired. */
  async previous(key: string, requestHash: string): Promise<CheckoutRecord | null> {
    const found = await findCheckoutByKey(this.deps.db.reader, key);
    if (!found) return null;
    if (this.deps.now().getTime() - found.createdAt.getTime() > DAY_MS && found.status !== 'open') {
      await retireCheckoutKey(this.deps.db.em(), found.id);
      return null;
    }
    if (found.requestHash !== requestHash) {
      throw unprocessable('shop_idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
    }
    return found;
  }

  /**
   * A retry of a checkout whose payment answer was lost (open at `pay`, nobody
   * holding it) settles it now: the same payload under the same idempotency
   * key makes payments replay the first attempt (or run it once if it never
   * started). Anything else replays the first result.
   */
  private async replayOrSettle(c: CheckoutRecord, actor: Actor, payloadJson: string): Promise<PaymentResultView> {
    if (c.status === 'open' && c.step === 'pay' && c.orderId) {
      const now = this.deps.now();
      const lease = new Date(now.getTime() + this.deps.config.CHECKOUT_RECOVERY_AFTER_SECONDS * 1000);
      if (await leaseCheckout(this.deps.db.em(), c.id, 'pay', now, lease)) {
        return unwrap(await this.saga.payExisting(c, actor, payloadJson));
      }
    }
    return this.replay(c);
  }

  /** The first result of a checkout key; waits (bounded) while a twin request is still running it. */
  async replay(c: CheckoutRecord): Promise<PaymentResultView> {
    let current: CheckoutRecord | null = c;
    const deadline = Date.now() + 30_000;
    while (current && current.status === 'open' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      current = await findCheckoutByKey(this.deps.db.reader, c.checkoutKey);
    }
    return unwrap(current?.outcome as SagaResult | null, true);
  }
}
