import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { amountOrNull } from './decimal-amount';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** JSON Schema of a variation: the one REST shape, inside a product and in the cart's variations lookup. */
export const VariationSchema = Type.Object({
  id: Type.Integer(),
  attributes: Type.Record(Type.String(), Type.Unknown(), { description: 'Attribute name -> value ({"color": "red"}), in order.' }),
  sku: Type.String(),
  barcode: Type.String(),
  price_id: Type.Integer({ description: "The variation's price (written 0: the product's first price; 0 read: no price)." }),
  amount: NullableNumber("Override of the price's amount; null: none."),
  price: NullableNumber("What one unit costs: the override, else the price's amount; null without a price."),
  currency: Type.String(),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()], {
    description: 'null when stock is not managed or hidden from this caller (hide_stock).',
  }),
  stock_status: Type.Union(['instock', 'outofstock', 'onbackorder'].map((s) => Type.Literal(s))),
  image: Type.String({ description: 'The variation\'s own image URL, or "".' }),
}, { title: 'Variation' });

export function variationResource(v: catalog.Variation) {
  return {
    id: v.id,
    attributes: v.attributes ?? {},
    sku: v.sku,
    barcode: v.barcode,
    price_id: v.priceId,
    amount: amountOrNull(v.amount),
    price: amountOrNull(v.unitAmount),
    currency: v.currency,
    stock_quantity: v.stockQuantity ?? null,
    stock_status: v.stockStatus,
    image: v.image,
  };
}
