import type { payments } from '@storefront/proto/payments';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { Counter } from 'prom-client';
import type { PaymentsDomain } from '../domain';
import { amountToMinor, checkCurrency } from '../domain/payments/amounts';
import { toGatewaySummary } from './mappers';

export function paymentHandlers(
  domain: PaymentsDomain,
  processed?: Counter<'gateway' | 'outcome'>,
): ServiceHandlers<typeof payments.PaymentServiceService> {
  return {
    async listAvailableGateways(req) {
      const amountMinor = req.amount ? amountToMinor(req.amount, req.currency ? checkCurrency(req.currency) : 'USD') : undefined;
      const views = await domain.catalog.available({ amountMinor, hasSubscription: req.hasSubscription, shippingMethod: req.shippingMethod });
      return { gateways: views.map(toGatewaySummary) };
    },
    async processPayment(req, caller) {
      const result = await domain.payments.process(req, caller);
      // A replay (same idempotency key) is the same attempt: counted once.
      if (!result.replayed) processed?.inc({ gateway: req.gatewayId, outcome: result.outcome });
      return result;
    },
    async validatePayment(req, caller) {
      await domain.payments.validate(
        { gatewayId: req.gatewayId, paymentPayloadJson: req.paymentPayloadJson, customerId: Number(req.customerId) },
        caller.clientIp,
      );
      return {};
    },
    async createIntent(req) {
      const intent = await domain.payments.createIntent(req);
      return {
        clientSecret: intent.clientSecret,
        intentId: intent.intentId,
        redirectUrl: intent.redirectUrl,
        requiresAction: intent.requiresAction,
      };
    },
    async refund(req) {
      return { refundId: await domain.payments.refund(req) };
    },
    async getPaymentInstructions(req) {
      return { text: await domain.catalog.paymentInstructions(req.gatewayId) };
    },
  };
}
