import type { RouteModule } from '../../context';
import { CONTENT_ROUTES } from './content-routes';
import { INVENTORY_ROUTES } from './inventory-routes';

/** Routes of the catalog service: products, terms, coupons (content types); stock, inventory, cart variations. */
export const CATALOG_ROUTES: RouteModule[] = [...CONTENT_ROUTES, ...INVENTORY_ROUTES];
