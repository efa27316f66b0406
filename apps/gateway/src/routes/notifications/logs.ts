import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { checkAccess } from '../../auth/access';
import { errorResponses } from '../../http/responses';
import { setPaginationHeaders } from '../../http/pagination';
import { missingParams } from '@storefront/errors';
import { Id, IdList, IdParams, Page, PerPage } from '../../http/schemas';
import { logEntryResource, LogEntrySchema, LogSettingsSchema } from '../../resources/notifications';

const tags = ['notifications'];

const ListQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  status: Type.Optional(Type.Union([Type.Literal('info'), Type.Literal('success'), Type.Literal('warning'), Type.Literal('error')], { description: 'Only this status.' })),
  customer_id: Type.Optional(Id('Only entries about this customer (requires manage_options).')),
  order_id: Type.Optional(Id('Only entries about this order (requires manage_options).')),
});

// `ids` in the body or, as the host platform also takes DELETE parameters, in the query string.
const DeleteBody = Type.Object(
  { ids: Type.Optional(Type.Array(Id(), { minItems: 1, maxItems: 1000, description: 'Entry ids to delete.' })) },
  { additionalProperties: false },
);
const DeleteQuery = Type.Object({ ids: Type.Optional(IdList('Entry ids to delete (when the body has none).')) });

const SettingsBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Record activity entries.' })),
    retention_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36500, description: 'Days to keep entries (0 = forever).' })),
  },
  { additionalProperties: false },
);

const settingsOut = (s: { enabled: boolean; retentionDays: number } | undefined) => ({
  enabled: s?.enabled ?? true,
  retention_days: s?.retentionDays ?? 0,
});

/** Activity logs (spec 4.17): public read of PII-free entries, admin write. */
export const logRoutes: RouteModule = (app, ctx) => {
  const logs = ctx.clients.notifications?.activityLog;
  if (!logs) return;

  app.get(
    '/logs',
    {
      config: { access: 'public', itemSchema: LogEntrySchema },
      // The filters by customer or order are admin-only: decided before the query is validated (a
      // guest's `customer_id=abc` is 401, not 400).
      preParsing: (request, _reply, payload, done) => {
        const raw = request.query as Record<string, unknown>;
        if (raw.customer_id !== undefined || raw.order_id !== undefined) checkAccess('admin', request.caller);
        done(null, payload);
      },
      schema: {
        operationId: 'listLogs',
        tags,
        summary: 'Activity log (public; filtering by customer or order needs manage_options)',
        querystring: ListQuery,
        response: { 200: Type.Array(LogEntrySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { entries, total } = await logs.listLogs(
        { page: q.page, perPage: q.per_page, status: q.status ?? '', customerId: q.customer_id ?? 0, orderId: q.order_id ?? 0 },
        request.caller,
      );
      setPaginationHeaders(request, reply, { total: Number(total), page: q.page, perPage: q.per_page });
      return entries.map((e) => logEntryResource(e, request));
    },
  );

  app.get(
    '/logs/:id',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getLog',
        tags,
        summary: 'One activity-log entry (public, as the list)',
        params: IdParams,
        response: { 200: LogEntrySchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => logEntryResource((await logs.getLog({ id: request.params.id }, request.caller)).entry!, request),
  );

  app.delete(
    '/logs',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteLogs',
        tags,
        summary: 'Delete activity-log entries',
        querystring: DeleteQuery,
        body: DeleteBody,
        response: {
          200: Type.Object({ deleted: Type.Integer({ description: 'Entries removed.' }) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const ids = request.body.ids ?? request.query.ids ?? [];
      if (!ids.length) throw missingParams(['ids']);
      return { deleted: Number((await logs.deleteLogs({ ids }, request.caller)).deleted) };
    },
  );

  app.get(
    '/logs/settings',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'getLogSettings',
        tags,
        summary: 'Activity-log settings',
        response: { 200: LogSettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => settingsOut((await logs.getLogSettings({}, request.caller)).settings),
  );

  app.post(
    '/logs/settings',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateLogSettings',
        tags,
        summary: 'Change activity-log settings',
        body: SettingsBody,
        response: { 200: LogSettingsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const current = (await logs.getLogSettings({}, request.caller)).settings;
      const { settings } = await logs.updateLogSettings(
        {
          settings: {
            enabled: request.body.enabled ?? current?.enabled ?? true,
            retentionDays: request.body.retention_days ?? current?.retentionDays ?? 30,
          },
        },
        request.caller,
      );
      return settingsOut(settings);
    },
  );
};
