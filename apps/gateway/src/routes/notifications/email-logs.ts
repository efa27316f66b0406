import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { errorResponses } from '../../http/responses';
import { setPaginationHeaders, setWholeListHeaders } from '../../http/pagination';
import { IdParams, Page, PerPage } from '../../http/schemas';
import { emailLogResource, EmailLogSchema, EmailLogSettingsSchema } from '../../resources/notifications';

const tags = ['notifications'];
const config = { access: 'admin' as const };
const ADMIN_ERRORS = [401, 403] as const;

const ListQuery = Type.Object({
  page: Page,
  per_page: PerPage(20),
  status: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('failed')], { description: 'Only entries with this status.' })),
  type: Type.Optional(Type.String({ maxLength: 50, description: 'Only this email type (an unknown one matches nothing).' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches recipient or subject.' })),
});

const SettingsBody = Type.Object(
  {
    retention_days_sent: Type.Integer({ minimum: 0, maximum: 36500, description: 'Days to keep sent entries (0 = forever).' }),
    retention_days_failed: Type.Integer({ minimum: 0, maximum: 36500, description: 'Days to keep failed entries (0 = forever).' }),
  },
  { additionalProperties: false },
);

const settingsOut = (s: { retentionDaysSent: number; retentionDaysFailed: number } | undefined) => ({
  retention_days_sent: s?.retentionDaysSent ?? 0,
  retention_days_failed: s?.retentionDaysFailed ?? 0,
});

/** Email logs (spec 4.17), manage_options. */
export const emailLogRoutes: RouteModule = (app, ctx) => {
  const emailLogs = ctx.clients.notifications?.emailLog;
  if (!emailLogs) return;

  app.get(
    '/email-logs',
    {
      // itemSchema: OPTIONS on the collection answers the entry's schema (spec 1).
      config: { ...config, itemSchema: EmailLogSchema },
      schema: {
        operationId: 'listEmailLogs',
        tags,
        summary: 'List sent and failed emails',
        querystring: ListQuery,
        response: { 200: Type.Array(EmailLogSchema), ...errorResponses(400, ...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { entries, total } = await emailLogs.listEmailLogs(
        { page: q.page, perPage: q.per_page, status: q.status ?? '', type: q.type ?? '', search: q.search ?? '' },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: Number(total), page: q.page, perPage: q.per_page });
      return entries.map((e) => emailLogResource(e, request));
    },
  );

  app.get(
    '/email-logs/settings',
    {
      config,
      schema: {
        operationId: 'getEmailLogSettings',
        tags,
        summary: 'Email-log retention settings',
        response: { 200: EmailLogSettingsSchema, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => settingsOut((await emailLogs.getEmailLogSettings({}, request.caller)).settings),
  );

  app.post(
    '/email-logs/settings',
    {
      config,
      schema: {
        operationId: 'updateEmailLogSettings',
        tags,
        summary: 'Change email-log retention',
        body: SettingsBody,
        response: { 200: EmailLogSettingsSchema, ...errorResponses(400, ...ADMIN_ERRORS) },
      },
    },
    async (request) => {
      const { settings } = await emailLogs.updateEmailLogSettings(
        {
          settings: {
            retentionDaysSent: request.body.retention_days_sent,
            retentionDaysFailed: request.body.retention_days_failed,
          },
        },
        request.caller,
      );
      return settingsOut(settings);
    },
  );

  app.post(
    '/email-logs/purge',
    {
      config,
      schema: {
        operationId: 'purgeEmailLogs',
        tags,
        summary: 'Remove entries older than the retention settings now',
        response: {
          200: Type.Object({ purged: Type.Boolean(), deleted: Type.Integer({ description: 'Entries removed.' }) }),
          ...errorResponses(...ADMIN_ERRORS),
        },
      },
    },
    async (request) => {
      const { deleted } = await emailLogs.purgeEmailLogs({}, request.caller);
      return { purged: true, deleted: Number(deleted) };
    },
  );

  app.get(
    '/email-logs/resendable-types',
    {
      config,
      schema: {
        operationId: 'listResendableEmailTypes',
        tags,
        summary: 'Email types that can be resent',
        response: {
          200: Type.Array(Type.Object({ type: Type.String(), label: Type.String() }, { title: 'ResendableEmailType' })),
          ...errorResponses(...ADMIN_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { types } = await emailLogs.listResendableTypes({}, request.caller);
      setWholeListHeaders(request, reply, types.length);
      return types;
    },
  );

  app.get(
    '/email-logs/:id',
    {
      config,
      schema: {
        operationId: 'getEmailLog',
        tags,
        summary: 'One email-log entry',
        params: IdParams,
        response: { 200: EmailLogSchema, ...errorResponses(400, ...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => emailLogResource((await emailLogs.getEmailLog({ id: request.params.id }, request.caller)).entry!, request),
  );

  app.delete(
    '/email-logs/:id',
    {
      config,
      schema: {
        operationId: 'deleteEmailLog',
        tags,
        summary: 'Delete one email-log entry',
        params: IdParams,
        response: {
          200: Type.Object({ deleted: Type.Boolean(), previous: EmailLogSchema }),
          ...errorResponses(400, ...ADMIN_ERRORS, 404),
        },
      },
    },
    async (request) => {
      const { previous } = await emailLogs.deleteEmailLog({ id: request.params.id }, request.caller);
      return { deleted: true, previous: emailLogResource(previous!, request) };
    },
  );

  app.post(
    '/email-logs/:id/resend',
    {
      config,
      schema: {
        operationId: 'resendEmail',
        tags,
        summary: 'Send a logged email again (logged as a new entry)',
        params: IdParams,
        response: { 200: EmailLogSchema, ...errorResponses(400, ...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => emailLogResource((await emailLogs.resendEmail({ id: request.params.id }, request.caller)).entry!, request),
  );
};
