import type { RouteModule } from '../../context';
import { adminOrderRoutes } from './admin';
import { analyticsRoutes } from './analytics';
import { myOrderRoutes } from './me';
import { subscriptionRoutes } from './subscriptions';

/** Order routes: admin `/order`, the customer's `/me/orders`, subscriptions (addon), and the sales analytics computed from orders. */
export const ORDER_ROUTES: RouteModule[] = [adminOrderRoutes, myOrderRoutes, analyticsRoutes, subscriptionRoutes];
