import { fromMinor } from '@storefront/money';
import { invalidParams } from '@storefront/errors';
import type { Actor } from '../actor';
import type { Carts } from '../cart/carts';
import type { CartDeps } from '../deps';
import type { GatewayInfo } from '../ports';
import type { CartPricer } from '../pricing/cart-pricer';
import { totalsKey, type Snapshot } from '../pricing/snapshot';
import type { CartSessions, SessionOutcome } from '../sessions/cart-sessions';
import {
  checkoutFields,
  consentCheckboxes,
  fieldErrors,
  fieldShapeProblems,
  fieldValueProblems,
  stateProblems,
  storedFieldProblems,
  truthy,
  type ConsentCheckbox,
  type FieldDefinition,
} from './fields';

export interface CheckoutStateView {
  snapshot: Snapshot;
  gateways: GatewayInfo[];
  orderId: number;
  fields: Record<string, string>;
  definitions: FieldDefinition[];
  branding: { logoUrl: string; storeName: string; siteUrl: string };
  placeOrderLabel: string;
  consents: (ConsentCheckbox & { checked: boolean })[];
}

/** Checkout state and field updates (REST GET /checkout/state, POST /checkout/update). */
export class CheckoutStates {
  constructor(
    private readonly deps: CartDeps,
    private readonly sessions: CartSessions,
    private readonly pricer: CartPricer,
    private readonly carts: Carts,
  ) {}

  async state(actor: Actor, token: string): Promise<{ state: CheckoutStateView; session: SessionOutcome }> {
    const { cart, session } = await this.sessions.resolve(actor, token, false);
    const snapshot = await this.pricer.price(cart, actor);
    const [gateways, settings] = await Promise.all([this.shownGateways(actor, snapshot), this.deps.settings.store()]);
    return {
      session,
      state: {
        snapshot,
        gateways,
        orderId: cart.draftOrderId,
        fields: cart.fields,
        definitions: checkoutFields(snapshot.needsShipping, this.deps.config.CHECKOUT_TERMS_REQUIRED),
        branding: { logoUrl: settings.logoUrl, storeName: settings.storeName, siteUrl: settings.siteUrl },
        placeOrderLabel: settings.placeOrderLabel || 'Place order',
        consents: consentCheckboxes(this.deps.config.CHECKOUT_TERMS_REQUIRED).map((c) => ({ ...c, checked: truthy(cart.fields[c.id]) })),
      },
    };
  }

  /** Gateways for this cart (payments' errors, 503 included, propagate: placing needs an answer). */
  async availableGateways(actor: Actor, snapshot: Snapshot): Promise<GatewayInfo[]> {
    if (!this.deps.payments) return [];
    return this.deps.payments.availableGateways(
      {
        amount: fromMinor(snapshot.totals.total, snapshot.decimals),
        currency: snapshot.currency,
        hasSubscription: snapshot.hasSubscription,
        customerId: actor.userId,
        shippingMethod: snapshot.needsShipping ? snapshot.chosenRate : '',
      },
      actor,
    );
  }

  /** Gateways the checkout page shows; none while payments is not configured or cannot answer. */
  async shownGateways(actor: Actor, snapshot: Snapshot): Promise<GatewayInfo[]> {
    if (!this.deps.payments) return [];
    try {
      return await this.availableGateways(actor, snapshot);
    } catch (err) {
      this.deps.logger.warn({ err }, 'payments did not list gateways; checkout shows none');
      return [];
    }
  }

  async update(actor: Actor, token: string, pushed: Record<string, string>) {
    const shape = fieldShapeProblems(pushed);
    if (Object.keys(shape).length) throw invalidParams(shape);
    const values = fieldValueProblems(pushed, Object.keys(pushed));
    if (Object.keys(values).length) throw fieldErrors(values);
    const { cart, session } = await this.sessions.resolve(actor, token, true);
    const lookups = await this.pricer.lookup(cart.lines);
    const before = await this.pricer.price(cart, actor, { lookups });
    const fields = { ...cart.fields };
    for (const [k, v] of Object.entries(pushed)) {
      if (v === '') delete fields[k];
      else fields[k] = v;
    }
    const stored = storedFieldProblems(fields);
    if (Object.keys(stored).length) throw invalidParams(stored);
    // A pushed state is checked against its country's list (a country changed alone waits for its state;
    // an empty state waits for place, which requires one where the country does).
    const touched = (['billing', 'shipping'] as const).filter((g) => pushed[`${g}_state`]);
    const states = touched.length ? await stateProblems(fields, this.deps.regions, touched, false) : {};
    if (Object.keys(states).length) throw fieldErrors(states);
    // Priced before they are stored: values the quote refuses (an unknown country) are a 422, never saved.
    const priced = await this.pricer.price(cart, actor, { lookups, fields });
    // A shipping method no rate offers is not kept (the chosen rate stays the quote's), so the stored
    // field never disagrees with chosen_shipping_method; as the host platform, a stale choice is not an error.
    if (fields.shipping_method && fields.shipping_method !== priced.chosenRate) delete fields.shipping_method;
    const saved = await this.carts.write(cart.id, async () => ({ fields }));
    const unchanged = JSON.stringify([saved.lines, saved.coupons]) === JSON.stringify([cart.lines, cart.coupons]);
    const snapshot = unchanged ? priced : await this.pricer.price(saved, actor, { lookups });
    // New fields can end a coupon's use (a billing email its restrictions refuse).
    await this.carts.dropLapsedCoupons(saved, snapshot);
    return { refresh: totalsKey(before) !== totalsKey(snapshot), snapshot, session, fields: saved.fields };
  }
}
