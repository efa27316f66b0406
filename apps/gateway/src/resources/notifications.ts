import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { notifications } from '@storefront/proto/notifications';
import { formatDateTime } from '../http/dates';
import { resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';
import { DateTime } from '../http/schemas';

/** An email-log entry (contract "Records the spec leaves open"). */
export const EmailLogSchema = Type.Object(
  {
    id: Type.Integer({ readOnly: true }),
    type: Type.String({ description: 'Email type (see /email-logs/resendable-types).' }),
    to: Type.String({ description: 'Recipient address.' }),
    subject: Type.String(),
    body: Type.String({ description: 'The text part as sent.' }),
    status: Type.Union([Type.Literal('sent'), Type.Literal('failed')]),
    error: Type.String({ description: 'The mail server error when failed, else "".' }),
    resent_from: Type.Integer({ description: 'Id of the entry this one re-sends, 0 when none.' }),
    created_at: DateTime('YYYY-MM-DD HH:MM:SS (UTC).'),
    sent_at: DateTime('When the server accepted it; null when it did not.'),
    _links: LinksSchema,
  },
  { title: 'EmailLog' },
);

export const EmailLogSettingsSchema = Type.Object(
  {
    retention_days_sent: Type.Integer({ description: 'Days to keep sent entries (0 = forever).' }),
    retention_days_failed: Type.Integer({ description: 'Days to keep failed entries (0 = forever).' }),
  },
  { title: 'EmailLogSettings' },
);

/** An activity-log entry: PII-free (GET /logs is public). */
export const LogEntrySchema = Type.Object(
  {
    id: Type.Integer({ readOnly: true }),
    status: Type.Union([Type.Literal('info'), Type.Literal('success'), Type.Literal('warning'), Type.Literal('error')]),
    source: Type.String({ description: 'Publishing area (orders, payments, catalog...).' }),
    message: Type.String(),
    context: Type.Object({}, { additionalProperties: true, description: 'PII-free details (ids, statuses).' }),
    created_at: DateTime('YYYY-MM-DD HH:MM:SS (UTC).'),
    _links: LinksSchema,
  },
  { title: 'LogEntry' },
);

export const LogSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Record activity entries.' }),
    retention_days: Type.Integer({ description: 'Days to keep entries (0 = forever).' }),
  },
  { title: 'LogSettings' },
);

const date = (iso: string) => (iso ? formatDateTime(new Date(iso)) : null);

export function emailLogResource(e: notifications.EmailLog, request: FastifyRequest) {
  return {
    id: Number(e.id),
    type: e.type,
    to: e.to,
    subject: e.subject,
    body: e.body,
    status: e.status as 'sent' | 'failed',
    error: e.error,
    resent_from: Number(e.resentFrom),
    created_at: date(e.createdAt),
    sent_at: date(e.sentAt),
    _links: resourceLinks(request, `/shop/v1/email-logs/${e.id}`, '/shop/v1/email-logs'),
  };
}

export function logEntryResource(e: notifications.LogEntry, request: FastifyRequest) {
  let context: Record<string, unknown>;
  try {
    context = JSON.parse(e.contextJson || '{}') as Record<string, unknown>;
  } catch {
    context = {};
  }
  return {
    id: Number(e.id),
    status: e.status as 'info' | 'success' | 'warning' | 'error',
    source: e.source,
    message: e.message,
    context,
    created_at: date(e.createdAt),
    _links: resourceLinks(request, `/shop/v1/logs/${e.id}`, '/shop/v1/logs'),
  };
}
