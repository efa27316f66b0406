import type { payments } from '@storefront/proto/payments';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { PaymentsDomain } from '../domain';

export function testCardHandlers(domain: PaymentsDomain): ServiceHandlers<typeof payments.TestCardServiceService> {
  return {
    async getActionStep(req) {
      return domain.actionStep.view(req.intentId);
    },
    async completeActionStep(req, caller) {
      return domain.actionStep.complete(req.intentId, req.outcome, caller);
    },
  };
}
