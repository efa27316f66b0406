import type { RouteModule } from '../../context';
import { inventoryRoutes } from './inventory';
import { stockRoutes } from './stock';
import { cartVariationRoutes } from './variations';

/** Stock (products/<id>/stock-*), inventory codes and the cart variations lookup. */
export const INVENTORY_ROUTES: RouteModule[] = [stockRoutes, inventoryRoutes, cartVariationRoutes];
