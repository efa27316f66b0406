import { OrderEvents } from '@storefront/domain-events/orders';
import { catalog } from '@storefront/proto/catalog';
import { defineService } from '@storefront/service-kit';
import { storeSettings } from '@storefront/service-kit/store-settings';
import { CatalogConfigSchema } from './config';
import { createCatalogDomain } from './domain';
import { seedDemoCatalog } from './domain/demo/demo-seed';
import { onOrderCancelled } from './events/order-cancelled';
import { onOrderDeleted, onOrderFailed, orderDeletedShortcut } from './events/order-failed';
import { onOrderPaid, orderPaidShortcut } from './events/order-paid';
import { onOrderPlaced, orderPlacedShortcut } from './events/order-placed';
import { couponHandlers } from './grpc/coupon.handlers';
import { customersDirectory } from './grpc/customers-directory';
import { inventoryHandlers } from './grpc/inventory.handlers';
import { lookupHandlers } from './grpc/lookup.handlers';
import { productHandlers } from './grpc/product.handlers';
import { stockHandlers } from './grpc/stock.handlers';
import { termHandlers } from './grpc/term.handlers';
import { entities } from './persistence/entities';
import { migrations } from './persistence/migrations';

/** Products, prices, variations, categories/tags, coupons, stock and reservations. */
export const catalogService = defineService({
  name: 'catalog',
  config: CatalogConfigSchema,
  entities,
  migrations,
  // Product lists and lookups: one plan fits every page and id (re-planning was half their Postgres CPU).
  readerGenericPlans: true,
  setup(ctx) {
    const { config, logger } = ctx;
    const customersChannel = config.CUSTOMERS_GRPC_ADDR
      ? ctx.connect('customers', config.CUSTOMERS_GRPC_ADDR)
      : undefined;
    const store = storeSettings(ctx, customersChannel, config.STORE_SETTINGS_TTL_SECONDS * 1000);
    const domain = createCatalogDomain({
      db: ctx.db,
      config,
      customers: customersDirectory(customersChannel),
      store,
      logger,
      now: () => new Date(),
    });
    ctx.addGrpcService(catalog.ProductServiceService, productHandlers(domain));
    ctx.addGrpcService(catalog.TermServiceService, termHandlers(domain));
    ctx.addGrpcService(catalog.CouponServiceService, couponHandlers(domain));
    ctx.addGrpcService(catalog.StockServiceService, stockHandlers(domain));
    ctx.addGrpcService(catalog.CatalogLookupServiceService, lookupHandlers(domain));
    ctx.addGrpcService(catalog.InventoryServiceService, inventoryHandlers(domain));
    ctx.consume('catalog.restock_cancelled_orders', OrderEvents.orderCancelled, onOrderCancelled(domain, logger));
    ctx.consume('catalog.release_failed_orders', OrderEvents.orderFailed, onOrderFailed(domain, logger));
    ctx.consume('catalog.release_deleted_orders', OrderEvents.orderDeleted, onOrderDeleted(domain, logger), { shortcut: orderDeletedShortcut });
    ctx.consume('catalog.commit_paid_orders', OrderEvents.orderPaid, onOrderPaid(domain, logger), {
      shortcut: orderPaidShortcut(domain),
    });
    ctx.consume('catalog.link_placed_orders', OrderEvents.orderPlaced, onOrderPlaced(domain, logger), {
      shortcut: orderPlacedShortcut,
    });

    ctx.onReady(async () => {
      if (config.SEED_DEMO_DATA && (await seedDemoCatalog(domain.deps))) logger.info('demo catalog seeded');
    });
    // Replicas may all run it: each sweep takes the reservations it locks with SKIP LOCKED.
    ctx.every('expired reservation sweep', config.RESERVATION_SWEEP_SECONDS, () => domain.reservations.sweepExpired());
  },
});
