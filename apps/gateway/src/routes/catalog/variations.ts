import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { Id } from '../../http/schemas';
import { documented, errorResponses } from '../../http/responses';
import { cartVariationsResource, CartVariationsSchema } from '../../resources/catalog/cart-variation';

const ProductParams = Type.Object({ product_id: Id('Product ID.') });

/**
 * The variations a shopper picks from (spec 4.1 rule 4). Public; a product the
 * caller cannot see is 404 like a missing one, a non-variable product 422
 * `shop_product_not_variable` (both decided by the catalog). Publishable keys
 * are turned away before this runs (auth/publishable-key.ts).
 */
export const cartVariationRoutes: RouteModule = (app, ctx) => {
  const lookup = ctx.clients.catalog?.catalogLookup;
  if (!lookup) return;

  app.get(
    '/cart/products/:product_id/variations',
    {
      config: { access: 'public', itemSchema: CartVariationsSchema },
      schema: {
        ...documented('catalog')('listCartVariations', 'List the variations a shopper can pick', {
          200: CartVariationsSchema,
          ...errorResponses(401, 422),
        }),
        params: ProductParams,
      },
    },
    async (request) =>
      cartVariationsResource(await lookup.getVariations({ productId: request.params.product_id }, request.caller)),
  );
};
