import type { notifications } from '@storefront/proto/notifications';
import type { ActivityLogEntry } from '../domain/activity/types';
import type { EmailLogEntry } from '../domain/email/types';

export function toProtoEmailLog(e: EmailLogEntry): notifications.EmailLog {
  return {
    id: e.id,
    type: e.type,
    to: e.to,
    subject: e.subject,
    body: e.body,
    status: e.status,
    error: e.error,
    createdAt: e.createdAt.toISOString(),
    sentAt: e.sentAt ? e.sentAt.toISOString() : '',
    resentFrom: e.resentFrom,
  };
}

export function toProtoLogEntry(e: ActivityLogEntry): notifications.LogEntry {
  return {
    id: e.id,
    status: e.status,
    source: e.source,
    message: e.message,
    contextJson: JSON.stringify(e.context),
    createdAt: e.createdAt.toISOString(),
  };
}
