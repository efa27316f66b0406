import { Type } from 'typebox';
import type { catalog } from '@storefront/proto';
import { amountOrNull } from './decimal-amount';

/** JSON Schema of one variation as the cart's variations lookup shows it. */
const CartVariationSchema = Type.Object({
  id: Type.Integer(),
  attributes: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Attribute name -> value, in the product\'s order ({"color": "red"}).',
  }),
  sku: Type.String(),
  price_id: Type.Integer({ description: 'The price a cart line names with this variation (0: the product has no price).' }),
  amount: Type.Union([Type.Number(), Type.Null()], {
    description: 'The variation\'s override of the price\'s amount; null: none.',
  }),
  price: Type.Union([Type.Number(), Type.Null()], {
    description: 'What one unit costs (the override, else the price\'s amount); null without a price.',
  }),
  currency: Type.String(),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()], { description: 'null when stock is not managed or hidden (hide_stock).' }),
  stock_status: Type.Union(['instock', 'outofstock', 'onbackorder'].map((s) => Type.Literal(s))),
  image: Type.String({ description: 'The variation\'s own image URL, or "".' }),
}, { title: 'CartVariation' });

/** JSON Schema of `GET /cart/products/<product_id>/variations` (spec 4.1: `{product_id, variations}`). */
export const CartVariationsSchema = Type.Object({
  product_id: Type.Integer(),
  variations: Type.Array(CartVariationSchema),
}, { title: 'CartVariations' });

function cartVariationResource(v: catalog.Variation) {
  return {
    id: v.id,
    attributes: v.attributes ?? {},
    sku: v.sku,
    price_id: v.priceId,
    amount: amountOrNull(v.amount),
    price: amountOrNull(v.unitAmount),
    currency: v.currency,
    stock_quantity: v.stockQuantity ?? null,
    stock_status: v.stockStatus,
    image: v.image,
  };
}

export function cartVariationsResource(result: catalog.GetVariationsResponse) {
  return { product_id: result.productId, variations: result.variations.map(cartVariationResource) };
}
