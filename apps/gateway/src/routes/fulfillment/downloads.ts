import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FulfillmentClients } from '../../clients';
import type { RouteModule } from '../../context';
import { errorResponses } from '../../http/responses';
import { setPaginationHeaders } from '../../http/pagination';
import { Id, Page, PerPage } from '../../http/schemas';
import { DownloadPermissionSchema, downloadPermissionResource, SignedDownloadSchema } from '../../resources/download';
import { formatDateTime } from '../../http/dates';

const tags = ['fulfillment'];
const CHUNK = 256 * 1024;

/** Any integer is taken and clamped (spec: "clamped into 30-3600"); only a non-integer is a 400. */
const ExpiresIn = Type.Integer({ description: 'Link lifetime in seconds (default 300; clamped into 30 to 3600).' });
const clampExpiresIn = (seconds: number) => Math.min(3600, Math.max(30, seconds));

const PermissionParams = Type.Object({ permission_id: Id('Download permission id.') });

const FileQuery = Type.Object({
  expires: Type.Integer({ minimum: 0, maximum: 1e11, description: 'Link expiry (unix seconds).' }),
  signature: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: 'HMAC signature.' }),
});

/** Streams a session's file chunk by chunk; `onComplete` runs only when every byte was flushed to the client. */
function sessionStream(downloads: FulfillmentClients['download'], sessionId: string, caller: Parameters<FulfillmentClients['download']['readDownloadChunk']>[1]) {
  return Readable.from(
    (async function* () {
      let offset = 0;
      for (;;) {
        const { data, eof } = await downloads.readDownloadChunk({ sessionId, offset, length: CHUNK }, caller);
        if (data.length) yield Buffer.from(data);
        offset += data.length;
        if (eof || !data.length) return;
      }
    })(),
    { objectMode: false },
  );
}

/** me/downloads (spec 4.9) and the signed file route. */
export const downloadRoutes: RouteModule = (app, ctx) => {
  const downloads = ctx.clients.fulfillment?.download;
  if (!downloads) return;

  app.get(
    '/me/downloads',
    {
      config: { access: 'logged_in' },
      schema: {
        operationId: 'listMyDownloads',
        tags,
        summary: 'The signed-in customer\'s download permissions',
        querystring: Type.Object({ page: Page, per_page: PerPage(20) }),
        response: { 200: Type.Array(DownloadPermissionSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const res = await downloads.listMyDownloads({ page: q.page, perPage: q.per_page }, request.caller);
      setPaginationHeaders(request, reply, { total: Number(res.total), page: q.page, perPage: q.per_page });
      return res.downloads.map((d) => downloadPermissionResource(request, d));
    },
  );

  app.get(
    '/me/downloads/:permission_id',
    {
      config: { access: 'logged_in' },
      schema: {
        operationId: 'getMyDownload',
        tags,
        summary: 'One of the signed-in customer\'s download permissions',
        params: PermissionParams,
        response: { 200: DownloadPermissionSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { download } = await downloads.getMyDownload({ permissionId: request.params.permission_id }, request.caller);
      return downloadPermissionResource(request, download!);
    },
  );

  app.post(
    '/me/downloads/:permission_id/sign',
    {
      config: { access: 'logged_in' },
      schema: {
        operationId: 'signMyDownload',
        tags,
        summary: 'A signed, expiring link to a purchased file',
        params: PermissionParams,
        querystring: Type.Object({ expires_in: Type.Optional(ExpiresIn) }),
        body: Type.Object({ expires_in: Type.Optional(ExpiresIn) }),
        response: { 200: SignedDownloadSchema, ...errorResponses(400, 401, 404, 410) },
      },
    },
    async (request) => {
      const expiresIn = clampExpiresIn(request.body.expires_in ?? request.query.expires_in ?? 300);
      const site = await ctx.site.get();
      const signed = await downloads.signDownload(
        { permissionId: request.params.permission_id, expiresIn, siteUrl: site.siteUrl },
        request.caller,
      );
      return {
        url: signed.url,
        expires_in: Number(signed.expiresIn),
        expires_at: signed.expiresAt ? formatDateTime(new Date(signed.expiresAt)) : null,
        file_name: signed.fileName,
      };
    },
  );

  app.get(
    '/downloads/:permission_id',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'downloadFile',
        tags,
        summary: 'The file of a signed download link (counted when fully streamed)',
        params: PermissionParams,
        querystring: FileQuery,
        response: {
          200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The file bytes.' }),
          ...errorResponses(400, 403, 404, 410),
        },
      },
    },
    async (request, reply) => {
      // A HEAD request (headers only) is never a download: it checks the link and the file, holding nothing.
      const probe = request.method === 'HEAD';
      const opened = await downloads.openDownload(
        { permissionId: request.params.permission_id, expires: request.query.expires, signature: request.query.signature, probe },
        request.caller,
      );
      const safeName = opened.fileName.replace(/[^\w.-]+/g, '_');
      reply
        .header('Content-Type', opened.contentType)
        .header('Content-Length', String(opened.size))
        .header('Content-Disposition', `attachment; filename="${safeName}"`)
        .header('Cache-Control', 'no-store');
      // A stream (empty) keeps the Content-Length set above: Fastify's HEAD handling would set 0 for no payload.
      if (probe) return reply.send(Readable.from([]));
      const caller = request.caller;
      const { sessionId } = opened;
      // Counted only when the last byte left for the client; a stream that ends sooner (the client went
      // away) is abandoned, so the download it held is free again.
      let finished = false;
      reply.raw.once('finish', () => {
        finished = true;
        downloads.completeDownload({ sessionId }, caller).catch((err: unknown) => {
          request.log.warn({ err, sessionId }, 'download completion not recorded');
        });
      });
      reply.raw.once('close', () => {
        if (finished) return;
        downloads.abandonDownload({ sessionId }, caller).catch((err: unknown) => {
          request.log.warn({ err, sessionId }, 'abandoned download not released; it is held until DOWNLOAD_SESSION_HOLD_SECONDS pass');
        });
      });
      return reply.send(sessionStream(downloads, sessionId, caller));
    },
  );
};
