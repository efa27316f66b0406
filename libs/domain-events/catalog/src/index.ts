import { defineEvent } from '@storefront/events';
import { catalog } from '@storefront/proto/catalog';

/** Events of the catalog service (proto/shop/catalog/v1/events.proto). */
export const CatalogEvents = {
  stockLow: defineEvent('catalog', 'stock_low', catalog.StockLow),
  purchasablesChanged: defineEvent('catalog', 'purchasables_changed', catalog.PurchasablesChanged),
  couponChanged: defineEvent('catalog', 'coupon_changed', catalog.CouponChanged),
};
