import { ActivityLog } from './activity/activity-log';
import type { NotificationsDeps } from './deps';
import { Emails } from './email/emails';

export type { NotificationsDeps } from './deps';

/** The notifications domain, wired once per service instance. */
export function createNotificationsDomain(deps: NotificationsDeps) {
  return { deps, emails: new Emails(deps), activity: new ActivityLog(deps) };
}
export type NotificationsDomain = ReturnType<typeof createNotificationsDomain>;
