import type { orders } from '@storefront/proto/orders';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { OrdersDomain } from '../domain';

/** Sales reports: the request goes to the analytics domain as is; the report comes back in the proto's shape. */
export function analyticsHandlers(domain: OrdersDomain): ServiceHandlers<typeof orders.AnalyticsServiceService> {
  const { analytics } = domain;
  return {
    async getStoreAnalytics(req) {
      return analytics.store(req);
    },
    async listProductAnalytics(req) {
      const r = await analytics.products(req);
      return { products: r.products, total: r.total, from: r.period.from, to: r.period.to, currency: r.currency };
    },
    async getProductAnalytics(req) {
      return analytics.product(req.productId, req);
    },
  };
}
