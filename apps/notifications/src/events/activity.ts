import type { EventHandler, EventShortcut } from '@storefront/events';
import type { common } from '@storefront/proto';
import type { NotificationsDomain } from '../domain';

/** `<source>.activity_logged` -> a PII-free activity-log entry. */
export function onActivityLogged(domain: NotificationsDomain, source: string): EventHandler<common.ActivityLogged> {
  return async ({ payload }, em) => domain.activity.record(em, payload, source);
}

/**
 * Every activity entry needs one statement: the insert records the event in
 * the inbox itself (ActivityLog.recordOnce), so no event of these consumers
 * takes the inbox transaction.
 */
export function activityLoggedShortcut(domain: NotificationsDomain, source: string): EventShortcut<common.ActivityLogged> {
  return async (envelope, consumer) => {
    await domain.activity.recordOnce(envelope.payload, source, { consumer, eventId: envelope.id });
    return true;
  };
}
