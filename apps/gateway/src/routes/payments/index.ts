import type { RouteModule } from '../../context';
import { gatewaySettingsRoutes } from './gateway-settings';
import { paymentRecordRoutes } from './payment';
import { paymentMethodRoutes } from './payment-methods';
import { testCardRoutes } from './test-card';

/** Routes owned by the payments service (absent when PAYMENTS_GRPC_ADDR is not configured). */
export const paymentRoutes: RouteModule = (app, ctx) => {
  const clients = ctx.clients.payments;
  if (!clients) return;
  paymentRecordRoutes(app, clients);
  gatewaySettingsRoutes(app, clients);
  paymentMethodRoutes(app, clients);
  if (ctx.addons.includes('card')) testCardRoutes(app, clients);
};
