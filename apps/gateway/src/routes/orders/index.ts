import type { RouteModule } from '../../context';
import { adminOrderRoutes } from './admin';
import { myOrderRoutes } from './me';

/** Order routes: admin `/order` and the customer's `/me/orders`. */
export const ORDER_ROUTES: RouteModule[] = [adminOrderRoutes, myOrderRoutes];
