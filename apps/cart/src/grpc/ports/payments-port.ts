import { DomainError } from '@storefront/errors';
import { bindClient, deadlineExceeded, type Channel } from '@storefront/grpc-client';
import { payments } from '@storefront/proto/payments';
import { PAYMENT_OUTCOME_UNKNOWN, type PaymentsPort } from '../../domain/ports';
import { callerOf } from './service-caller';

/** Payments over gRPC (PaymentService of the buying-path contract). */
export function paymentsPort(channel: Channel): PaymentsPort {
  const client = bindClient(channel, payments.PaymentServiceService);
  return {
    async availableGateways(input, actor) {
      const { gateways } = await client.listAvailableGateways({ ...input, shippingMethod: input.shippingMethod ?? '' }, callerOf(actor));
      return gateways.map((g) => ({
        id: g.id,
        title: g.title,
        description: g.description,
        publishableKey: g.publishableKey,
        hasFields: g.hasFields,
        supportsIntents: g.supportsIntents,
        icon: g.icon,
      }));
    },
    async processPayment(input, actor) {
      const r = await client
        .processPayment(
          payments.ProcessPaymentRequest.fromPartial({
            orderId: input.orderId,
            orderKey: input.orderKey,
            gatewayId: input.gatewayId,
            amount: input.amount,
            currency: input.currency,
            customerId: input.customerId,
            paymentPayloadJson: input.payloadJson,
            idempotencyKey: input.idempotencyKey,
            clientIp: input.clientIp,
            returnUrl: input.returnUrl,
            hasSubscription: input.hasSubscription,
            settleByKey: input.settleByKey ?? false,
          }),
          callerOf(actor),
        )
        .catch((err: unknown) => {
          if (!deadlineExceeded(err)) throw err;
          throw new DomainError(PAYMENT_OUTCOME_UNKNOWN, 503, 'The payment service did not answer in time.', { service: 'payments' });
        });
      return {
        outcome: r.outcome,
        transactionId: r.transactionId,
        redirectUrl: r.redirectUrl,
        intentId: r.intentId,
        clientSecret: r.clientSecret,
        declineReason: r.declineReason,
        message: r.message,
        gatewayTitle: r.gatewayTitle,
      };
    },
    async validatePayment(input, actor) {
      await client.validatePayment(
        payments.ValidatePaymentRequest.fromPartial({ gatewayId: input.gatewayId, paymentPayloadJson: input.payloadJson, customerId: input.customerId }),
        callerOf(actor),
      );
    },
    async createIntent(input, actor) {
      const r = await client.createIntent(payments.CreateIntentRequest.fromPartial({ ...input, setup: false }), callerOf(actor));
      return { clientSecret: r.clientSecret, intentId: r.intentId, redirectUrl: r.redirectUrl, requiresAction: r.requiresAction };
    },
  };
}
