import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { baseUrl, resourceLinks, type Links } from '../../http/links';
import { filterByContext } from './context-filter';
import { ALL_CONTEXTS, VIEW_EDIT, type Presentation } from './presentation';

export type Taxonomy = 'shop_product_category' | 'shop_product_tag';

export const isHierarchical = (taxonomy: Taxonomy) => taxonomy === 'shop_product_category';

/** Storefront archive paths of the two taxonomies (the WooCommerce defaults). */
const ARCHIVE_PATH: Record<Taxonomy, string> = {
  shop_product_category: 'product-category',
  shop_product_tag: 'product-tag',
};

/** JSON Schema of a term (host-platform terms controller); only categories have `parent`. */
function termSchema(taxonomy: Taxonomy) {
  return Type.Object({
    id: Type.Integer({ readOnly: true, context: ALL_CONTEXTS }),
    count: Type.Integer({ readOnly: true, context: VIEW_EDIT, description: 'Published products carrying the term.' }),
    description: Type.String({ context: VIEW_EDIT }),
    link: Type.String({ readOnly: true, context: ALL_CONTEXTS, description: 'URL of the term archive on the storefront.' }),
    name: Type.String({ context: ALL_CONTEXTS, description: 'Unique among siblings.' }),
    slug: Type.String({ context: ALL_CONTEXTS, description: 'Unique within the taxonomy; default: from the name.' }),
    taxonomy: Type.Literal(taxonomy, { readOnly: true, context: ALL_CONTEXTS }),
    ...(isHierarchical(taxonomy)
      ? { parent: Type.Integer({ context: VIEW_EDIT, description: 'Parent category id; 0: top level.' }) }
      : {}),
    meta: Type.Record(Type.String(), Type.Unknown(), {
      context: VIEW_EDIT,
      description: 'Custom fields; writes merge keys, a null value removes one.',
    }),
  });
}

export const TERM_SCHEMAS = {
  shop_product_category: termSchema('shop_product_category'),
  shop_product_tag: termSchema('shop_product_tag'),
};

function termLinks(t: catalog.Term, taxonomy: Taxonomy, request: Presentation['request']): Links {
  const base = baseUrl(request);
  const collection = `/shop/v1/${taxonomy}`;
  const extra: Links = {
    'shop:post_type': [{ href: `${base}/shop/v1/shop_product?${taxonomy}=${t.id}` }],
  };
  if (t.parent > 0) extra.up = [{ href: `${base}${collection}/${t.parent}`, embeddable: true }];
  return resourceLinks(request, `${collection}/${t.id}`, collection, extra);
}

export function termResource(t: catalog.Term, taxonomy: Taxonomy, view: Presentation) {
  const item = {
    id: t.id,
    count: t.count,
    description: t.description,
    link: `${view.siteUrl}/${ARCHIVE_PATH[taxonomy]}/${t.slug}/`,
    name: t.name,
    slug: t.slug,
    taxonomy,
    ...(isHierarchical(taxonomy) ? { parent: t.parent } : {}),
    meta: t.meta ?? {},
    _links: termLinks(t, taxonomy, view.request),
  };
  return filterByContext(item, TERM_SCHEMAS[taxonomy], view.context);
}
