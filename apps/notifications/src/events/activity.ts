import type { EventHandler } from '@storefront/events';
import type { common } from '@storefront/proto';
import type { NotificationsDomain } from '../domain';

/** `<source>.activity_logged` -> a PII-free activity-log entry. */
export function onActivityLogged(domain: NotificationsDomain, source: string): EventHandler<common.ActivityLogged> {
  return async ({ payload }, em) => domain.activity.record(em, payload, source);
}
