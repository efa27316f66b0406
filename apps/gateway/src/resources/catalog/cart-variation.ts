import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { VariationSchema, variationResource } from './variation';

/** One variation as the cart's variations lookup shows it: the product's variation without the barcode. */
const CartVariationSchema = Type.Omit(VariationSchema, ['barcode'], { title: 'CartVariation' });

/** JSON Schema of `GET /cart/products/<product_id>/variations` (spec 4.1: `{product_id, variations}`). */
export const CartVariationsSchema = Type.Object({
  product_id: Type.Integer(),
  variations: Type.Array(CartVariationSchema),
}, { title: 'CartVariations' });

function cartVariationResource(v: catalog.Variation) {
  const { barcode: _barcode, ...variation } = variationResource(v);
  return variation;
}

export function cartVariationsResource(result: catalog.GetVariationsResponse) {
  return { product_id: result.productId, variations: result.variations.map(cartVariationResource) };
}
