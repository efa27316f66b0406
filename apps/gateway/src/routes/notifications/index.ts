import type { RouteModule } from '../../context';
import { emailLogRoutes } from './email-logs';
import { logRoutes } from './logs';

/** Routes of the notifications service: email logs and activity logs. */
export const NOTIFICATIONS_ROUTES: RouteModule[] = [emailLogRoutes, logRoutes];
