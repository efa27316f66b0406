import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject } from 'typebox';
import type { DomainError } from '@storefront/errors';
import type { GatewayContext, TypedApp } from '../../context';
import { can } from '../../auth/access';
import { baseUrl } from '../../http/links';
import { paginationHeaders, setPaginationHeaders } from '../../http/pagination';
import { sendConditional, type ConditionalRead } from '../../http/response-cache';
import { Context, Force, IdParams, Nullable } from '../../http/schemas';
import { documented, errorResponses, LinksSchema } from '../../http/responses';
import { contextualResponse } from '../../resources/catalog/context-filter';
import type { Presentation } from '../../resources/catalog/presentation';
import { siteUrlOf } from '../../resources/catalog/site-url';

/**
 * One native content type (posts or terms controller): its schemas, the
 * catalog calls behind each route, and how a record is shown. The catalog
 * service decides every permission from the caller (access 'content').
 */
export interface ContentType<Item extends { id: number }, ListQuery, CreateBody, UpdateBody> {
  /** Collection path inside shop/v1, e.g. `/shop_product`. */
  path: string;
  itemSchema: TObject;
  /** Component names: `noun` (Product) for the item, `plural` (Products) for operationIds; default noun + s. */
  noun: string;
  plural?: string;
  listQuery: TObject;
  createBody: TObject;
  updateBody: TObject;
  /** Posts refuse a create that names an id (`rest_post_exists`); terms drop it. */
  existingItemError?: () => DomainError;
  list(query: ListQuery, request: FastifyRequest): Promise<{ items: Item[]; total: number }>;
  get(id: number, context: string, request: FastifyRequest): Promise<Item>;
  create(body: CreateBody, request: FastifyRequest): Promise<Item>;
  update(id: number, body: UpdateBody, request: FastifyRequest): Promise<Item>;
  /** `deleted: false`: moved to the trash (posts without force); the service refuses what it cannot do. */
  delete(id: number, force: boolean, request: FastifyRequest): Promise<{ item: Item; deleted: boolean }>;
  present(item: Item, view: Presentation): object;
  /**
   * Conditional reads (products): the service answers "not modified" for a
   * still-current ETag, so reads are served from the response cache.
   */
  conditional?: {
    list(query: ListQuery, request: FastifyRequest, ifNoneMatch: string): Promise<ConditionalRead<{ items: Item[]; total: number }>>;
    get(id: number, context: string, request: FastifyRequest, ifNoneMatch: string): Promise<ConditionalRead<Item | undefined>>;
  };
}

interface PageParams {
  page: number;
  per_page: number;
  context: string;
}

/** The capability that shows hidden stock quantities (the catalog's one per-caller difference). */
const STOCK_VISIBLE = 'edit_shop_products';

const ItemQuery = Type.Object({ context: Context });
const DeleteQuery = Type.Object({ force: Force('Delete permanently instead of moving to the trash (terms: required).') });
// `force` may also come in a JSON body (host-platform convention); no body at all is null.
const DeleteBody = Nullable(Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false }));

/** Registers `GET/POST <path>` and `GET/PUT/PATCH/DELETE <path>/:id`; writes answer in the edit context. */
export function registerContentType<Item extends { id: number }, ListQuery extends PageParams, CreateBody, UpdateBody>(
  app: TypedApp,
  ctx: Pick<GatewayContext, 'site' | 'responses'>,
  type: ContentType<Item, ListQuery, CreateBody, UpdateBody>,
): void {
  const { site, responses } = ctx;
  const config = { access: 'content' as const, itemSchema: type.itemSchema };
  const itemUrl = `${type.path}/:id`;
  const doc = documented('catalog');
  const { noun } = type;
  const plural = type.plural ?? `${noun}s`;
  const label = noun.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const Item = Type.Unsafe(
    contextualResponse({ ...type.itemSchema, properties: { ...type.itemSchema.properties, _links: LinksSchema } }, noun),
  );
  const Deleted = Type.Object({ deleted: Type.Boolean(), previous: Item }, { title: `Deleted${noun}` });
  const ItemOrDeleted = Type.Union([Deleted, Item], {
    description: 'With force (or when the type has no trash): {deleted, previous}; otherwise the trashed item.',
  });
  // The site URL (for `link`) comes from the gateway's cache, alongside the catalog call.
  const withSite = async <T>(request: FastifyRequest, call: Promise<T>) =>
    Promise.all([call, siteUrlOf(site, request)]);
  const present = (item: Item, request: FastifyRequest, context: string, siteUrl: string) =>
    type.present(item, { request, context, siteUrl });

  // Reads of types with conditional reads go through the validated response
  // cache, signed-in callers' too: the service checks permission, then the
  // ETag, on every request, so a stored body is only served while it is
  // exactly what this caller would get.
  const serveCached = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    fetch: (ifNoneMatch: string) => Promise<ConditionalRead<T>>,
    render: (value: T, siteUrl: string) => { body: unknown; headers?: Record<string, string> },
  ) => {
    const siteUrl = await siteUrlOf(site, request);
    // The one caller-dependent part of a document is stock visibility (the ETag
    // says so too): one stored copy per class, not per user.
    const key = `${baseUrl(request)}${request.url}|${siteUrl}|${can(request.caller, STOCK_VISIBLE) ? 'editor' : 'reader'}`;
    return sendConditional(request, reply, responses, key, fetch, (value) => render(value, siteUrl));
  };

  app.get(
    type.path,
    { config, schema: { ...doc(`list${plural}`, `List ${label} items`, { 200: Type.Array(Item) }), querystring: type.listQuery } },
    async (request, reply) => {
    const query = request.query as ListQuery;
    const cond = type.conditional;
    if (cond) {
      return serveCached(
        request,
        reply,
        (etag) => cond.list(query, request, etag),
        ({ items, total }, siteUrl) => ({
          body: items.map((item) => present(item, request, query.context, siteUrl)),
          headers: paginationHeaders(request, { total, page: query.page, perPage: query.per_page }),
        }),
      );
    }
    const [{ items, total }, siteUrl] = await withSite(request, type.list(query, request));
    setPaginationHeaders(request, reply, { total, page: query.page, perPage: query.per_page });
    return items.map((item) => present(item, request, query.context, siteUrl));
  });

  app.post(
    type.path,
    {
      config,
      schema: {
        ...doc(`create${noun}`, `Create a ${label}`, { 201: Item, ...errorResponses(409, 422) }),
        body: type.createBody,
      },
    },
    async (request, reply) => {
    const body = request.body as CreateBody & { id?: unknown };
    if (body.id !== undefined && type.existingItemError) throw type.existingItemError();
    const [item, siteUrl] = await withSite(request, type.create(body, request));
    reply.code(201).header('Location', `/shop/v1${type.path}/${item.id}`);
    return present(item, request, 'edit', siteUrl);
  });

  app.get(
    itemUrl,
    { config, schema: { ...doc(`get${noun}`, `Get a ${label}`, { 200: Item }), params: IdParams, querystring: ItemQuery } },
    async (request, reply) => {
    const { context } = request.query;
    const cond = type.conditional;
    if (cond) {
      return serveCached(
        request,
        reply,
        (etag) => cond.get(request.params.id, context, request, etag),
        (item, siteUrl) => ({ body: present(item!, request, context, siteUrl) }),
      );
    }
    const [item, siteUrl] = await withSite(request, type.get(request.params.id, context, request));
    return present(item, request, context, siteUrl);
  });

  app.route({
    method: ['PUT', 'PATCH'],
    url: itemUrl,
    config,
    schema: {
      ...doc(`update${noun}`, `Update a ${label}`, { 200: Item, ...errorResponses(409, 422) }),
      params: IdParams,
      body: type.updateBody,
    },
    handler: async (request) => {
      const { id } = request.params as { id: number };
      const [item, siteUrl] = await withSite(request, type.update(id, request.body as UpdateBody, request));
      return present(item, request, 'edit', siteUrl);
    },
  });

  app.delete(
    itemUrl,
    {
      config,
      schema: {
        ...doc(`delete${noun}`, `Delete a ${label} (or move it to the trash)`, { 200: ItemOrDeleted, ...errorResponses(409, 410, 501) }),
        params: IdParams,
        querystring: DeleteQuery,
        body: DeleteBody,
      },
    },
    async (request) => {
      const force = request.query.force || request.body?.force === true;
      const [{ item, deleted }, siteUrl] = await withSite(request, type.delete(request.params.id, force, request));
      const shown = present(item, request, 'edit', siteUrl);
      return deleted ? { deleted: true, previous: shown } : shown;
    },
  );
}
