import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { badRequest } from '@storefront/errors';
import type { catalog } from '@storefront/proto/catalog';
import type { RouteModule } from '../../context';
import { IdList } from '../../http/schemas';
import { collectionQuery, postCollectionParams, Slugs } from '../../resources/catalog/collection-params';
import { productResource, ProductSchema } from '../../resources/catalog/product';
import {
  ProductCreateBody,
  productFields,
  ProductUpdateBody,
  type ProductWrite,
} from '../../resources/catalog/product-input';
import { registerContentType } from './content-controller';

const ListQuery = Type.Object({
  ...postCollectionParams,
  slug: Slugs,
  shop_product_category: IdList('Products in any of these categories.'),
  shop_product_category_exclude: IdList('Products in none of these categories.'),
  shop_product_tag: IdList('Products with any of these tags.'),
  shop_product_tag_exclude: IdList('Products with none of these tags.'),
});

/** `shop_product` (spec 4.6): the posts controller plus the commerce fields. */
export const productRoutes: RouteModule = (app, ctx) => {
  const products = ctx.clients.catalog?.product;
  if (!products) return;

  const listConditionally = async (q: Static<typeof ListQuery>, request: FastifyRequest, ifNoneMatch: string) => {
    const res = await products.listProducts(
      {
        query: collectionQuery(q),
        shopProductCategory: q.shop_product_category,
        shopProductCategoryExclude: q.shop_product_category_exclude,
        shopProductTag: q.shop_product_tag,
        shopProductTagExclude: q.shop_product_tag_exclude,
        ifNoneMatch,
      },
      request.caller,
    );
    return { notModified: res.notModified, etag: res.etag, value: { items: res.products, total: res.total } };
  };

  registerContentType<catalog.Product, Static<typeof ListQuery>, ProductWrite, ProductWrite>(
    app,
    ctx,
    {
      path: '/shop_product',
      itemSchema: ProductSchema,
      noun: 'Product',
      listQuery: ListQuery,
      createBody: ProductCreateBody,
      updateBody: ProductUpdateBody,
      existingItemError: () => badRequest('rest_post_exists', 'Cannot create existing post.'),
      async list(q, request) {
        return (await listConditionally(q, request, '')).value;
      },
      async get(id, context, request) {
        return (await products.getProduct({ id, context, ifNoneMatch: '' }, request.caller)).product!;
      },
      conditional: {
        list: listConditionally,
        async get(id, context, request, ifNoneMatch) {
          const res = await products.getProduct({ id, context, ifNoneMatch }, request.caller);
          return { notModified: res.notModified, etag: res.etag, value: res.product };
        },
      },
      async create(body, request) {
        return (await products.createProduct({ fields: productFields(body) }, request.caller)).product!;
      },
      async update(id, body, request) {
        return (await products.updateProduct({ id, fields: productFields(body) }, request.caller)).product!;
      },
      async delete(id, force, request) {
        const { product, deleted } = await products.deleteProduct({ id, force }, request.caller);
        return { item: product!, deleted };
      },
      present: productResource,
    },
  );
};
