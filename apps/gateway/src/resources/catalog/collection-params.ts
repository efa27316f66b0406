import { Type, type TSchemaOptions } from 'typebox';
import { catalog } from '@storefront/proto/catalog';
import { Context, IdList, Page, PerPage } from '../../http/schemas';

// The host platform's standard collection parameters of the native routes
// (spec 1), validated here so bad values are 400 rest_invalid_param before
// any call; the catalog checks them again and decides what each caller may list.

const Literals = (values: readonly string[], options: TSchemaOptions) =>
  Type.Union(values.map((v) => Type.Literal(v)), options);

export const Search = Type.String({ maxLength: 200, default: '', description: 'Case-insensitive match (plain text).' });

export const Slugs = Type.Array(Type.String({ maxLength: 200 }), {
  maxItems: 100,
  default: [],
  description: 'Only items with one of these slugs.',
});

const POST_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash', 'any'] as const;
const POST_ORDERBY = ['date', 'id', 'include', 'title', 'slug', 'modified', 'relevance'] as const;

/** Parameters of products and coupons. `status` other than publish needs the edit-collection capability. */
export const postCollectionParams = {
  context: Context,
  page: Page,
  per_page: PerPage(10),
  search: Search,
  include: IdList('Limit result set to specific IDs.'),
  exclude: IdList('Ensure result set excludes specific IDs.'),
  order: Literals(['asc', 'desc'], { default: 'desc', description: 'Sort direction.' }),
  orderby: Literals(POST_ORDERBY, {
    default: 'date',
    description: 'Sort field; relevance needs search, include needs include.',
  }),
  status: Type.Array(Literals(POST_STATUSES, {}), {
    maxItems: POST_STATUSES.length,
    default: ['publish'],
    description: 'Statuses to list; any: every status but trash.',
  }),
};

export interface PostCollectionValues {
  context: string;
  page: number;
  per_page: number;
  search: string;
  slug?: string[];
  include: number[];
  exclude: number[];
  order: string;
  orderby: string;
  status: string[];
}

export function collectionQuery(q: PostCollectionValues): catalog.CollectionQuery {
  return catalog.CollectionQuery.fromPartial({
    page: q.page,
    perPage: q.per_page,
    search: q.search,
    slug: q.slug ?? [],
    status: q.status,
    orderby: q.orderby,
    order: q.order,
    include: q.include,
    exclude: q.exclude,
    context: q.context,
  });
}
