import { Type, type Static } from 'typebox';
import { requestFingerprint } from '@storefront/errors';
import type { CartClients } from '../../clients';
import type { RouteModule } from '../../context';
import { idempotencyKeyOf } from '../../http/idempotency-key';
import { errorResponses } from '../../http/responses';
import { checkoutStateResource, CheckoutStateSchema, PaymentResultSchema, paymentResultResource, shippingRatesResource, ShippingRateSchema } from '../../resources/cart/checkout-state';
import { fragmentsResource } from '../../resources/cart/html';
import { CartSnapshotSchema, snapshotResource, TotalsSchema, totalsResource } from '../../resources/cart/snapshot';
import { applySession, cartSession } from './session';

const SessionId = Type.Optional(Type.String({ maxLength: 128, description: 'Cart session token of a cross-origin client.' }));
const SessionQuery = Type.Object({ session_id: SessionId });
const FieldValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]);
const Fields = Type.Record(Type.String({ maxLength: 64 }), FieldValue, {
  maxProperties: 100,
  description: 'Checkout field values (billing_*, shipping_*, shipping_method, order_comments, consents).',
});
const Payload = Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Gateway-specific payment data.' }));

const UpdateBody = Type.Object({ fields: Fields, session_id: SessionId }, { additionalProperties: false });
const PlaceBody = Type.Object(
  {
    fields: Fields,
    payment_method: Type.String({ minLength: 1, maxLength: 64, description: 'Gateway id.' }),
    payment_payload: Payload,
    session_id: SessionId,
  },
  { additionalProperties: false },
);
const PayOrderBody = Type.Object(
  {
    order_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    payment_method: Type.String({ minLength: 1, maxLength: 64 }),
    order_key: Type.Optional(Type.String({ maxLength: 64 })),
    payment_payload: Payload,
    session_id: SessionId,
  },
  { additionalProperties: false },
);
const IntentParams = Type.Object({ gateway_id: Type.String({ minLength: 1, maxLength: 64 }) });
const IntentBody = Type.Optional(
  Type.Object(
    {
      order_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
      order_key: Type.Optional(Type.String({ maxLength: 64 })),
      fields: Type.Optional(Fields),
      session_id: SessionId,
    },
    { additionalProperties: false },
  ),
);
const CouponBody = Type.Object(
  { coupon_code: Type.String({ maxLength: 1000, description: 'Case-insensitive. A code no coupon can have (over 200 characters) is 422 shop_coupon_invalid.' }), session_id: SessionId },
  { additionalProperties: false },
);
const RemoveCouponBody = Type.Object(
  { coupon_code: Type.Optional(Type.String({ maxLength: 200 })), session_id: SessionId },
  { additionalProperties: false },
);

const UpdateResponse = Type.Object(
  {
    refresh: Type.Boolean({ description: 'True whenever any total moved.' }),
    result: Type.String(),
    reload: Type.Boolean(),
    fragments: Type.Record(Type.String(), Type.String()),
    totals: TotalsSchema,
    shipping_rates: Type.Array(ShippingRateSchema),
    chosen_shipping_method: Type.String(),
    snapshot: CartSnapshotSchema,
  },
  { title: 'CheckoutUpdateResult' },
);
const IntentResponse = Type.Object(
  {
    client_secret: Type.String(),
    intent_id: Type.String(),
    redirect_url: Type.String(),
    requires_action: Type.Boolean(),
    order_id: Type.Integer(),
  },
  { title: 'PaymentIntent' },
);
const AppliedResponse = Type.Object({ applied: Type.Boolean(), code: Type.String(), snapshot: CartSnapshotSchema }, { title: 'CouponApplied' });
const RemovedResponse = Type.Object({ removed: Type.Boolean(), code: Type.String(), snapshot: CartSnapshotSchema }, { title: 'CouponRemoved' });

type FieldMap = Static<typeof Fields>;

/** REST values as the strings the cart stores (booleans as "1"/"0"). */
function fieldStrings(fields: FieldMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields ?? {})) out[k] = v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  return out;
}

/** A stable hash of a body (keys sorted), for Idempotency-Key reuse checks and derived keys. */
function bodyHash(body: object): string {
  const { session_id: _ignored, ...rest } = body as Record<string, unknown>;
  return requestFingerprint(rest);
}

const tags = ['cart'];
/** Placing runs a saga over four services; under load it outlives the default per-call deadline. */
const SAGA_DEADLINE_MS = 30_000;
const config = { access: 'public' as const };

/** Spec 4.2: checkout state, updates, placing, paying, intents and coupons. */
export function checkoutRoutes(clients: CartClients): RouteModule {
  return (app) => {
    const { checkout, cart: carts } = clients;

    app.get(
      '/checkout/state',
      { config, schema: { operationId: 'getCheckoutState', tags, summary: 'Checkout state (spec 2.2).', querystring: SessionQuery, response: { 200: CheckoutStateSchema, ...errorResponses(400, 401, 503) } } },
      async (request, reply) => {
        const r = await checkout.getCheckoutState({ session: cartSession(request) }, request.caller);
        applySession(request, reply, r.session);
        return checkoutStateResource(r.state);
      },
    );

    app.post(
      '/checkout/update',
      { config, schema: { operationId: 'updateCheckout', tags, summary: 'Pushes field values onto the cart and recalculates.', body: UpdateBody, response: { 200: UpdateResponse, ...errorResponses(400, 401, 422, 503) } } },
      async (request, reply) => {
        const r = await checkout.updateCheckout({ session: cartSession(request), fields: fieldStrings(request.body.fields) }, request.caller);
        applySession(request, reply, r.session);
        const referer = request.headers.referer ?? '';
        const mode = /\/cart(\/|$)/.test(referer) ? 'cart' : 'checkout';
        // The update does not list gateways: its fragments leave the payment block out (refresh-fragments has it).
        const { 'shop-checkout-payment': _payment, ...fragments } = fragmentsResource(
          { snapshot: r.snapshot, availableGateways: [], orderId: 0, checkoutFields: [], placeOrderLabel: '', consentCheckboxes: [], fields: r.fields },
          mode,
        );
        return {
          refresh: r.refresh,
          result: 'success',
          reload: false,
          fragments,
          totals: totalsResource(r.snapshot?.totals),
          shipping_rates: shippingRatesResource(r.snapshot),
          chosen_shipping_method: r.snapshot?.chosenShippingMethod ?? '',
          snapshot: snapshotResource(r.snapshot),
        };
      },
    );

    app.post(
      '/checkout/place',
      { config, schema: { operationId: 'placeOrder', tags, summary: 'Places the order (saga: stock, coupons, order, payment). Honors Idempotency-Key.', body: PlaceBody, response: { 200: PaymentResultSchema, ...errorResponses(400, 401, 402, 404, 409, 422, 429, 503) } } },
      async (request, reply) => {
        idempotencyKeyOf(request); // checked here; it travels with the caller
        const b = request.body;
        const r = await checkout.placeOrder(
          {
            session: cartSession(request),
            fields: fieldStrings(b.fields),
            paymentMethod: b.payment_method,
            paymentPayloadJson: b.payment_payload ? JSON.stringify(b.payment_payload) : '',
            requestHash: bodyHash(b),
          },
          request.caller,
          { deadlineMs: SAGA_DEADLINE_MS },
        );
        applySession(request, reply, r.session);
        if (r.replayed && request.caller.idempotencyKey) reply.header('Idempotent-Replayed', 'true');
        return paymentResultResource(r.result);
      },
    );

    app.post(
      '/checkout/pay-order',
      { config, schema: { operationId: 'payOrder', tags, summary: 'Pays an existing order (owner, pay_for_order or order_key). Honors Idempotency-Key.', body: PayOrderBody, response: { 200: PaymentResultSchema, ...errorResponses(400, 401, 402, 404, 409, 422, 429, 503) } } },
      async (request, reply) => {
        idempotencyKeyOf(request); // checked here; it travels with the caller
        const b = request.body;
        const r = await checkout.payOrder(
          {
            orderId: b.order_id,
            orderKey: b.order_key ?? '',
            paymentMethod: b.payment_method,
            paymentPayloadJson: b.payment_payload ? JSON.stringify(b.payment_payload) : '',
            requestHash: bodyHash(b),
          },
          request.caller,
          { deadlineMs: SAGA_DEADLINE_MS },
        );
        if (r.replayed && request.caller.idempotencyKey) reply.header('Idempotent-Replayed', 'true');
        return paymentResultResource(r.result);
      },
    );

    app.post(
      '/checkout/payment-intent/:gateway_id',
      { config, schema: { operationId: 'createPaymentIntent', tags, summary: 'A gateway intent for the cart (via a draft order) or for an order.', params: IntentParams, body: IntentBody, response: { 200: IntentResponse, ...errorResponses(400, 401, 404, 409, 422, 503) } } },
      async (request, reply) => {
        const b = request.body ?? {};
        const r = await checkout.createPaymentIntent(
          { session: cartSession(request), gatewayId: request.params.gateway_id, orderId: b.order_id ?? 0, orderKey: b.order_key ?? '', fields: fieldStrings(b.fields) },
          request.caller,
        );
        applySession(request, reply, r.session);
        return { client_secret: r.clientSecret, intent_id: r.intentId, redirect_url: r.redirectUrl, requires_action: r.requiresAction, order_id: r.orderId };
      },
    );

    app.post(
      '/checkout/coupon/apply',
      { config, schema: { operationId: 'applyCoupon', tags, summary: 'Applies a coupon code (case-insensitive).', body: CouponBody, response: { 200: AppliedResponse, ...errorResponses(400, 401, 422, 503) } } },
      async (request, reply) => {
        const r = await carts.applyCoupon({ session: cartSession(request), code: request.body.coupon_code }, request.caller);
        applySession(request, reply, r.session);
        return { applied: true, code: r.code, snapshot: snapshotResource(r.snapshot) };
      },
    );

    app.post(
      '/checkout/coupon/remove',
      { config, schema: { operationId: 'removeCoupon', tags, summary: 'Removes an applied coupon.', body: RemoveCouponBody, response: { 200: RemovedResponse, ...errorResponses(400, 401, 422, 503) } } },
      async (request, reply) => {
        const r = await carts.removeCoupon({ session: cartSession(request), code: request.body.coupon_code ?? '' }, request.caller);
        applySession(request, reply, r.session);
        return { removed: true, code: r.code, snapshot: snapshotResource(r.snapshot) };
      },
    );
  };
}
