import { OrderEvents } from '@storefront/domain-events/orders';
import type { EventType } from '@storefront/events';
import { ConfigError, defineService } from '@storefront/service-kit';
import { fulfillment } from '@storefront/proto/fulfillment';
import { FulfillmentConfigSchema } from './config';
import { createFulfillmentDomain } from './domain';
import { createDownloadsDomain } from './domain/downloads';
import { onOrderPaid, onPaidOrderGone } from './events/order-paid';
import { catalogProducts } from './grpc/catalog-products';
import { downloadHandlers } from './grpc/download.handlers';
import { LocalFileStorage } from './storage/local-files';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';
import { quoteHandlers } from './grpc/quote.handlers';
import { regionHandlers } from './grpc/region.handlers';
import { shippingHandlers } from './grpc/shipping.handlers';
import { taxHandlers } from './grpc/tax.handlers';

// Development-only fallback; production must configure its own signing key.
const DEV_DOWNLOAD_SECRET = 'storefront-development-download-secret';

/** Shipping zones and methods, tax rates, the region table the shipping/tax quote engine, download permissions and bundle sync. */
export const fulfillmentService = defineService({
  name: 'fulfillment',
  config: FulfillmentConfigSchema,
  entities,
  migrations,
  setup(ctx) {
    const domain = createFulfillmentDomain({ db: ctx.db, config: ctx.config });
    ctx.addGrpcService(fulfillment.TaxServiceService, taxHandlers(domain));
    ctx.addGrpcService(fulfillment.ShippingServiceService, shippingHandlers(domain));
    ctx.addGrpcService(fulfillment.QuoteServiceService, quoteHandlers(domain));
    ctx.addGrpcService(fulfillment.RegionServiceService, regionHandlers());

    const { config } = ctx;
    if (config.NODE_ENV === 'production' && !config.DOWNLOAD_SIGNING_SECRET) {
      throw new ConfigError(['DOWNLOAD_SIGNING_SECRET is required when NODE_ENV=production']);
    }
    const downloads = createDownloadsDomain({
      db: ctx.db,
      products: catalogProducts(config.CATALOG_GRPC_ADDR ? ctx.connect('catalog', config.CATALOG_GRPC_ADDR) : undefined),
      storage: new LocalFileStorage(config.FILES_DIR),
      secret: config.DOWNLOAD_SIGNING_SECRET ?? DEV_DOWNLOAD_SECRET,
      siteUrl: config.SHOP_SITE_URL,
      sessionHoldSeconds: config.DOWNLOAD_SESSION_HOLD_SECONDS,
      now: () => new Date(),
    });
    ctx.addGrpcService(fulfillment.DownloadServiceService, downloadHandlers(downloads));
    const paid = onOrderPaid(downloads, ctx.logger);
    ctx.consume('fulfillment.grant_downloads', OrderEvents.orderPaid, paid.handler, { shortcut: paid.shortcut });
    // Orders that stop counting as paid leave what bundle syncs walk.
    const gone = <T extends { orderId: number }>(name: string, event: EventType<T>, isGone: (payload: T) => boolean) => {
      const { handler, shortcut } = onPaidOrderGone(downloads, isGone);
      ctx.consume(name, event, handler, { shortcut });
    };
    gone('fulfillment.forget_cancelled_orders', OrderEvents.orderCancelled, (o) => o.wasPaid);
    gone('fulfillment.forget_refunded_orders', OrderEvents.orderRefunded, (o) => o.full);
    gone('fulfillment.forget_deleted_orders', OrderEvents.orderDeleted, () => true);
  },
});
