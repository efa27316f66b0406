import { defineEvent, type EventType } from '@storefront/events';
import { common } from '@storefront/proto';

/** Services that publish activity-log entries (each on its own subject). */
export const ACTIVITY_SOURCES = ['customers', 'catalog', 'fulfillment', 'payments', 'orders', 'cart', 'notifications'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/**
 * `<service>.activity_logged`: an activity-log entry (proto shop.common.v1.ActivityLogged)
 * published by `service` through its outbox; notifications records every source's.
 */
export function activityLogged(service: ActivitySource): EventType<common.ActivityLogged> {
  return defineEvent(service, 'activity_logged', common.ActivityLogged);
}
