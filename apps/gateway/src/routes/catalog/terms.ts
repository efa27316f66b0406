import { Type, type Static } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import type { CatalogClients } from '../../clients';
import type { GatewayContext, RouteModule, TypedApp } from '../../context';
import { Context, Id, IdList, MAX_ID, Page, PerPage } from '../../http/schemas';
import { Search, Slugs } from '../../resources/catalog/collection-params';
import { isHierarchical, TERM_SCHEMAS, termResource, type Taxonomy } from '../../resources/catalog/term';
import { MetaObject } from '../../resources/catalog/write-values';
import { registerContentType } from './content-controller';

const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'count', 'term_group', 'description'];
const ParentId = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_ID, description });

/** The terms controller's collection parameters; `parent` exists for categories only (tags are flat). */
function listQuery(taxonomy: Taxonomy) {
  return Type.Object({
    context: Context,
    page: Page,
    per_page: PerPage(10),
    search: Search,
    slug: Slugs,
    include: IdList('Limit result set to specific IDs.'),
    exclude: IdList('Ensure result set excludes specific IDs.'),
    order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc', description: 'Sort direction.' }),
    orderby: Type.Union(TERM_ORDERBY.map((v) => Type.Literal(v)), { default: 'name', description: 'Sort field.' }),
    hide_empty: Type.Boolean({ default: false, description: 'Leave out terms no published product carries.' }),
    ...(isHierarchical(taxonomy) ? { parent: Type.Optional(ParentId('Only children of this term; 0: top level.')) } : {}),
    post: Type.Optional(Id('Only terms assigned to this product.')),
  });
}

function writable(taxonomy: Taxonomy) {
  return {
    name: Type.String({ maxLength: 200, description: 'Unique among siblings. Required on create.' }),
    slug: Type.String({ maxLength: 200, description: 'Unique in the taxonomy; default: from the name.' }),
    description: Type.String({ maxLength: 10_000 }),
    ...(isHierarchical(taxonomy) ? { parent: ParentId('Parent category; 0: top level.') } : {}),
    meta: MetaObject('Custom fields, merged; a null value removes the key.'),
  };
}

type TermList = { parent?: number; post?: number } & Static<ReturnType<typeof listQuery>>;
type TermWrite = { name?: string; slug?: string; description?: string; parent?: number; meta?: Record<string, unknown> };

function registerTaxonomy(app: TypedApp, ctx: GatewayContext, terms: CatalogClients['term'], taxonomy: Taxonomy) {
  const fields = writable(taxonomy);
  registerContentType<catalog.Term, TermList, TermWrite, TermWrite>(app, ctx, {
    path: `/${taxonomy}`,
    itemSchema: TERM_SCHEMAS[taxonomy],
    noun: taxonomy === 'shop_product_category' ? 'ProductCategory' : 'ProductTag',
    plural: taxonomy === 'shop_product_category' ? 'ProductCategories' : 'ProductTags',
    listQuery: listQuery(taxonomy),
    // Unknown fields (an `id`, read-only fields of a read) are dropped, as the terms controller does.
    createBody: Type.Object(
      Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, key === 'name' ? schema : Type.Optional(schema)])),
      { additionalProperties: false },
    ),
    updateBody: Type.Partial(Type.Object(fields), { additionalProperties: false }),
    async list(q, request) {
      const result = await terms.listTerms(
        {
          taxonomy,
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          slug: q.slug,
          orderby: q.orderby,
          order: q.order,
          include: q.include,
          exclude: q.exclude,
          hideEmpty: q.hide_empty,
          parent: q.parent,
          post: q.post,
          context: q.context,
        },
        request.caller,
      );
      return { items: result.terms, total: result.total };
    },
    async get(id, context, request) {
      return (await terms.getTerm({ taxonomy, id, context }, request.caller)).term!;
    },
    async create(body, request) {
      return (await terms.createTerm({ taxonomy, fields: body }, request.caller)).term!;
    },
    async update(id, body, request) {
      return (await terms.updateTerm({ taxonomy, id, fields: body }, request.caller)).term!;
    },
    /** Terms have no trash: the service answers 501 rest_trash_not_supported without force. */
    async delete(id, force, request) {
      const { previous } = await terms.deleteTerm({ taxonomy, id, force }, request.caller);
      return { item: previous!, deleted: true };
    },
    present: (term, view) => termResource(term, taxonomy, view),
  });
}

/** `shop_product_category` and `shop_product_tag` (spec 4.6): the host platform's terms controller. */
export const termRoutes: RouteModule = (app, ctx) => {
  const terms = ctx.clients.catalog?.term;
  if (!terms) return;
  registerTaxonomy(app, ctx, terms, 'shop_product_category');
  registerTaxonomy(app, ctx, terms, 'shop_product_tag');
};
