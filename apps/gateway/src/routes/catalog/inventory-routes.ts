import type { RouteModule } from '../../context';

/** Stock (products/<id>/stock-*), inventory codes and the cart variations lookup. */
export const INVENTORY_ROUTES: RouteModule[] = [];
