import { createHash, randomUUID } from 'node:crypto';
import { conflict, DomainError, invalidParams, unprocessable } from '@storefront/errors';
import { fromMinor } from '@storefront/money';
import { finishCheckout, insertCheckout, retireCheckoutKey, touchCheckoutCart } from '../../persistence/checkouts.repository';
import type { Actor } from '../actor';
import type { CartDeps } from '../deps';
import type { OrderView } from '../ports';
import type { CartPricer } from '../pricing/cart-pricer';
import type { Snapshot } from '../pricing/snapshot';
import type { CartSessions, SessionOutcome } from '../sessions/cart-sessions';
import type { Carts } from '../cart/carts';
import type { CheckoutRecord, PaymentResultView } from './checkout-record';
import type { CheckoutStates } from './checkout-state';
import { fieldErrors, fieldShapeProblems, fieldValueProblems } from './fields';
import { orderPlan } from './order-plan';
import { requireCheckoutServices, unwrap, type PlaceOrder } from './place-order';
import type { CheckoutSaga } from './saga';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
// Not a checkout_draft: it is the cart's snapshot for a payment intent, placed (priced against the
// address, checked, its stock reserved) by /checkout/place only, as the host platform pays only placed orders.
const PAYABLE = new Set(['pending_payment', 'failed', 'on_hold']);

/** 409: `shop_order_already_paid` for a paid order, `shop_order_not_payable` for an unpaid one past paying (cancelled), as orders answers. */
function assertPayable(order: OrderView): void {
  if (order.paidStatus && order.paidStatus !== 'unpaid') throw conflict('shop_order_already_paid', `Order ${order.id} has already been paid.`);
  if (!PAYABLE.has(order.status)) {
    throw conflict('shop_order_not_payable', `Order ${order.id} is ${order.status} and cannot be paid.`, { order_status: order.status });
  }
}

/**
 * POST /checkout/pay-order (authorization by orders: owner, pay_for_order or
 * order_key, else 404; the gateway re-checked against the order) and
 * POST /checkout/payment-intent/<gateway_id> (spec 4.2 rules 4 and 5).
 */
export class OrderPayments {
  constructor(
    private readonly deps: CartDeps,
    private readonly sessions: CartSessions,
    private readonly pricer: CartPricer,
    private readonly carts: Carts,
    private readonly states: CheckoutStates,
    private readonly place: PlaceOrder,
    private readonly saga: CheckoutSaga,
  ) {}

  private async payableOrder(actor: Actor, orderId: number, orderKey: string): Promise<OrderView> {
    requireCheckoutServices(this.deps);
    if (!(orderId >= 1)) throw invalidParams({ order_id: 'order_id must be a positive integer.' });
    const order = await this.deps.orders!.getOrderForPayment(orderId, orderKey, actor);
    return order;
  }

  private async requireGateway(actor: Actor, order: OrderView, gatewayId: string) {
    const gateways = await this.deps.payments!.availableGateways(
      { amount: order.total, currency: order.currency, hasSubscription: order.hasSubscription, customerId: order.customerId },
      actor,
    );
    const gateway = gateways.find((g) => g.id === gatewayId);
    if (!gateway) throw unprocessable('shop_checkout_invalid_gateway', `"${gatewayId}" cannot pay this order.`);
    return gateway;
  }

  async payOrder(
    actor: Actor,
    input: { orderId: number; orderKey: string; paymentMethod: string; payloadJson: string; requestHash: string },
  ): Promise<{ result: PaymentResultView; replayed: boolean }> {
    if (!input.paymentMethod) throw invalidParams({ payment_method: 'payment_method is required.' });
    const order = await this.payableOrder(actor, input.orderId, input.orderKey);
    const owner = actor.userId ? `u${actor.userId}` : `o${order.id}`;
    const key = actor.idempotencyKey ? sha(`pay|key|${owner}|${actor.idempotencyKey}`) : undefined;
    if (key) {
      const previous = await this.place.previous(key, input.requestHash);
      if (previous) return { result: await this.place.replay(previous), replayed: true };
    }
    assertPayable(order);
    const gateway = await this.requireGateway(actor, order, input.paymentMethod);
    const settings = await this.deps.settings.store();
    // A failed order's checkout gave back its stock and coupon uses; paying it takes them again (the saga).
    const retake =
      order.status === 'failed' && order.reservationId
        ? { reservationId: order.reservationId, customerId: order.customerId, email: order.billingEmail, couponCodes: order.couponCodes }
        : undefined;
    const checkout: CheckoutRecord = {
      id: randomUUID(),
      checkoutKey: key ?? sha(`pay|once|${randomUUID()}`),
      kind: 'pay',
      cartId: null,
      cartRevision: 0,
      customerId: actor.userId,
      requestHash: input.requestHash,
      status: 'open',
      step: retake ? 'reserve' : 'pay',
      paymentMethod: gateway.id,
      orderId: order.id,
      orderKey: order.orderKey,
      plan: {
        amount: order.total,
        currency: order.currency,
        email: order.billingEmail,
        // The payer, who may not be the owner (an order key, pay_for_order): saved cards are looked up,
        // and a new one saved, for whoever pays, never the owner's for someone else.
        customerId: actor.userId,
        gatewayTitle: gateway.title,
        hasSubscription: order.hasSubscription,
        stockLines: [],
        couponCodes: [],
        checkoutUrl: settings.pages.checkout,
        returnUrl: '',
        clientIp: actor.clientIp ?? '',
        retake,
      },
      outcome: null,
      createdAt: this.deps.now(),
    };
    const now = this.deps.now();
    const lease = new Date(now.getTime() + this.deps.config.CHECKOUT_RECOVERY_AFTER_SECONDS * 1000);
    const inserted = await insertCheckout(this.deps.db.reader, checkout, lease, now);
    if (!inserted) {
      // Its key's first request, or (checkouts_open_payment_of_order) another payment of this order still running.
      const twin = await this.place.previous(checkout.checkoutKey, input.requestHash);
      if (!twin) throw conflict('shop_checkout_in_progress', 'A payment of this order is still being processed; retry shortly.');
      return { result: await this.place.replay(twin), replayed: true };
    }
    // Read again now that this is the order's one running payment: one that finished just before
    // (it paid the order after the read above) must not be followed by a second charge.
    // Nothing was taken or charged yet: the attempt is closed (never left for recovery to run), and a
    // refusal is its key's answer; an outage is not (the key is let go, so a retry runs again).
    try {
      assertPayable(await this.deps.orders!.getOrderForPayment(order.id, input.orderKey, actor));
    } catch (err) {
      const refused = DomainError.is(err) && err.status < 500;
      const e = refused ? err : new DomainError('shop_service_unavailable', 503, 'The order could not be read; retry shortly.');
      await finishCheckout(this.deps.db.reader, checkout.id, 'failed', { error: { code: e.code, status: e.status, message: e.message, data: e.data ?? {} } }, this.deps.now());
      if (!refused) await retireCheckoutKey(this.deps.db.em(), checkout.id);
      throw err;
    }
    return { result: unwrap(await this.saga.payExisting(checkout, actor, input.payloadJson)), replayed: false };
  }

  /** The gateway of a payment intent: available for this cart (422 invalid gateway) and able to build intents (rule 5). */
  private async intentGateway(actor: Actor, snapshot: Snapshot, gatewayId: string) {
    const gateways = await this.states.availableGateways(actor, snapshot);
    const gateway = gateways.find((g) => g.id === gatewayId);
    if (!gateway) throw unprocessable('shop_checkout_invalid_gateway', `"${gatewayId}" is not an available payment method.`);
    if (!gateway.supportsIntents) throw unprocessable('shop_checkout_intent_unsupported', `"${gateway.id}" does not support payment intents.`);
    return gateway;
  }

  async intent(
    actor: Actor,
    token: string,
    input: { gatewayId: string; orderId: number; orderKey: string; fields: Record<string, string> },
  ): Promise<{ clientSecret: string; intentId: string; redirectUrl: string; requiresAction: boolean; orderId: number; session: SessionOutcome }> {
    requireCheckoutServices(this.deps);
    if (input.orderId) {
      // The order's totals are authoritative; no cart sync. Only an order that still needs paying gets an intent.
      const order = await this.payableOrder(actor, input.orderId, input.orderKey);
      assertPayable(order);
      const intent = await this.deps.payments!.createIntent(
        { gatewayId: input.gatewayId, orderId: order.id, amount: order.total, currency: order.currency, customerId: actor.userId, returnUrl: '' },
        actor,
      );
      return { ...intent, orderId: order.id, session: { token: '', clear: false } };
    }
    const shape = fieldShapeProblems(input.fields);
    if (Object.keys(shape).length) throw invalidParams(shape);
    const values = fieldValueProblems(input.fields);
    if (Object.keys(values).length) throw fieldErrors(values);
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    if (!cart.lines.length) {
      // Rule 5 before rule 4: a gateway without intent support is refused whatever the cart holds.
      await this.intentGateway(actor, await this.pricer.price(cart, actor), input.gatewayId);
      throw unprocessable('shop_cart_empty', 'Your cart is empty.');
    }
    // Priced with the pushed values before they are stored (a refused country is a 422, never saved).
    const snapshot = await this.pricer.price(cart, actor, { fields: { ...cart.fields, ...input.fields } });
    const gateway = await this.intentGateway(actor, snapshot, input.gatewayId);
    const saved = Object.keys(input.fields).length
      ? await this.carts.write(cart.id, async (_em, locked) => ({ fields: { ...locked.fields, ...input.fields } }))
      : cart;
    // The cart is snapshotted onto a draft order (one per cart revision; promoted when placed).
    const plan = orderPlan({
      snapshot,
      fields: saved.fields,
      actor,
      checkoutKey: sha(`draft|${saved.id}|${saved.revision}|${fromMinor(snapshot.totals.total, snapshot.decimals)}`),
      paymentMethod: gateway.id,
      gatewayTitle: gateway.title,
      draftOrderId: saved.draftOrderId,
      status: 'checkout_draft',
    });
    const draft = await this.deps.orders!.createOrder(plan.order!, actor);
    if (draft.id !== saved.draftOrderId) await this.deps.db.em().transactional((em) => touchCheckoutCart(em, saved.id, draft.id, this.deps.now()));
    const intent = await this.deps.payments!.createIntent(
      { gatewayId: gateway.id, orderId: draft.id, amount: plan.amount, currency: plan.currency, customerId: actor.userId, returnUrl: '' },
      actor,
    );
    return { ...intent, orderId: draft.id, session };
  }
}
