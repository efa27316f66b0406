import { cart } from '@storefront/proto/cart';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CartDomain } from '../domain';
import type { PaymentResultView } from '../domain/checkout/checkout-record';
import { sessionMessage, snapshotMessage } from './mappers';

function resultMessage(r: PaymentResultView): cart.PaymentResult {
  return { ...r };
}

/** CheckoutService: proto in, one domain call, proto out. */
export function checkoutHandlers(domain: CartDomain): ServiceHandlers<typeof cart.CheckoutServiceService> {
  const token = (r: { session?: cart.CartSession }) => r.session?.token ?? '';
  return {
    async getCheckoutState(req, caller) {
      const { state: s, session } = await domain.checkout.state(caller, token(req));
      return {
        session: sessionMessage(session),
        state: {
          snapshot: snapshotMessage(s.snapshot),
          availableGateways: s.gateways.map((g) => ({
            id: g.id,
            title: g.title,
            publishableKey: g.publishableKey,
            description: g.description,
            hasFields: g.hasFields,
            supportsIntents: g.supportsIntents,
            icon: g.icon,
          })),
          orderId: s.orderId,
          checkoutFields: s.definitions,
          branding: s.branding,
          placeOrderLabel: s.placeOrderLabel,
          consentCheckboxes: s.consents,
          fields: s.fields,
        },
      };
    },
    async updateCheckout(req, caller) {
      const r = await domain.checkout.update(caller, token(req), req.fields);
      return { refresh: r.refresh, snapshot: snapshotMessage(r.snapshot), session: sessionMessage(r.session), fields: r.fields };
    },
    async placeOrder(req, caller) {
      const r = await domain.place.place(caller, token(req), {
        fields: req.fields,
        paymentMethod: req.paymentMethod,
        payloadJson: req.paymentPayloadJson,
        requestHash: req.requestHash,
      });
      return { result: resultMessage(r.result), replayed: r.replayed, session: sessionMessage(r.session) };
    },
    async payOrder(req, caller) {
      const r = await domain.payments.payOrder(caller, {
        orderId: req.orderId,
        orderKey: req.orderKey,
        paymentMethod: req.paymentMethod,
        payloadJson: req.paymentPayloadJson,
        requestHash: req.requestHash,
      });
      return { result: resultMessage(r.result), replayed: r.replayed };
    },
    async createPaymentIntent(req, caller) {
      const r = await domain.payments.intent(caller, token(req), {
        gatewayId: req.gatewayId,
        orderId: req.orderId,
        orderKey: req.orderKey,
        fields: req.fields,
      });
      return { ...r, session: sessionMessage(r.session) };
    },
  };
}
