import { invalidParams } from '@storefront/errors';
import type { payments } from '@storefront/proto/payments';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { PaymentsDomain } from '../domain';
import { toGatewayDetail, toPaymentRecord } from './mappers';

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text || 'null');
  } catch {
    throw invalidParams({ [field]: `${field} must be JSON.` });
  }
}

export function gatewayHandlers(domain: PaymentsDomain): ServiceHandlers<typeof payments.PaymentGatewayServiceService> {
  return {
    async listGateways(req) {
      const { views, total, totalPages } = await domain.catalog.list(req);
      return { gateways: views.map(toGatewayDetail), total, totalPages };
    },
    async getSettingsSchema() {
      return { schemaJson: JSON.stringify(domain.settings.schema()) };
    },
    async getSettings() {
      return { settingsJson: JSON.stringify(await domain.settings.masked()) };
    },
    async updateSettings(req) {
      const settings = await domain.settings.update(parseJson(req.configJson, 'config'), req.replace);
      return { settingsJson: JSON.stringify(settings) };
    },
    async verifySettings(req) {
      return domain.settings.verify(req.method, parseJson(req.configJson, 'config'));
    },
    async getPayment(req, caller) {
      return { payment: toPaymentRecord(await domain.records.get(req.orderId, req.orderKey, caller)) };
    },
    async getTokenizationStatus() {
      const gatewayIds = await domain.catalog.tokenizationGateways();
      return { available: gatewayIds.length > 0, gatewayIds };
    },
  };
}
