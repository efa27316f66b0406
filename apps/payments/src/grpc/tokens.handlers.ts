import type { payments } from '@storefront/proto/payments';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { PaymentsDomain } from '../domain';
import { toSavedToken } from './mappers';

export function tokenHandlers(domain: PaymentsDomain): ServiceHandlers<typeof payments.PaymentMethodServiceService> {
  return {
    async listPaymentMethods(_req, caller) {
      return { tokens: (await domain.methods.list(caller)).map(toSavedToken) };
    },
    async addPaymentMethod(req, caller) {
      const result = await domain.methods.add(
        {
          paymentMethod: req.paymentMethod,
          payloadJson: req.paymentPayloadJson,
          fieldsJson: req.fieldsJson,
          idempotencyKey: req.idempotencyKey,
          clientIp: req.clientIp,
        },
        caller,
      );
      return { result: result.result, token: toSavedToken(result.token), replayed: result.replayed, message: result.message };
    },
    async createSetupIntent(req, caller) {
      return domain.methods.setupIntent({ paymentMethod: req.paymentMethod, returnUrl: req.returnUrl }, caller);
    },
    async deletePaymentMethod(req, caller) {
      await domain.methods.delete(req.tokenId, caller);
      return { deleted: true, tokenId: req.tokenId };
    },
    async setDefaultPaymentMethod(req, caller) {
      await domain.methods.setDefault(req.tokenId, caller);
      return { default: true, tokenId: req.tokenId };
    },
  };
}
