import { CouponCatalog } from './coupons/coupons';
import { CouponRedemptions } from './coupons/redemptions';
import type { CatalogDeps } from './deps';
import { Inventory } from './inventory/inventory';
import { CatalogLookup } from './lookup/lookup';
import { ProductCatalog } from './products/products';
import { Reservations } from './reservations/reservations';
import { StockKeeper } from './stock/stock';
import { TermCatalog } from './terms/terms';

export type { CatalogDeps, CustomerDirectory, StoreSettings } from './deps';
export type { Actor } from './shared/actor';

/** The catalog domain, wired once per service instance. */
export function createCatalogDomain(deps: CatalogDeps) {
  return {
    deps,
    products: new ProductCatalog(deps),
    terms: new TermCatalog(deps),
    coupons: new CouponCatalog(deps),
    redemptions: new CouponRedemptions(deps),
    stock: new StockKeeper(deps),
    reservations: new Reservations(deps),
    lookup: new CatalogLookup(deps),
    inventory: new Inventory(deps),
  };
}
export type CatalogDomain = ReturnType<typeof createCatalogDomain>;
