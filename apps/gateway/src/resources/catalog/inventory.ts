import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { amountOrNull } from './decimal-amount';

/** JSON Schema of `POST /inventory/generate-code` (spec 2.6: `{value}`). */
export const GeneratedCodeSchema = Type.Object({
  value: Type.String({ description: 'A SKU (CAT-NAME-0001) or an in-store EAN-13 barcode (prefix 2), unused by any product.' }),
}, { title: 'GeneratedCode' });

const ResolvedCodeSchema = Type.Object({
  code: Type.String({ description: 'The code as requested (trimmed).' }),
  matched_by: Type.Union([Type.Literal('sku'), Type.Literal('barcode')], { description: 'A SKU match wins over a barcode match.' }),
  product_id: Type.Integer(),
  variation_id: Type.Integer({ description: '0 when the code names the product itself.' }),
  name: Type.String({ description: 'Product title, with the variation\'s attribute values ("T-Shirt - Red, L").' }),
  sku: Type.String(),
  barcode: Type.String(),
  price_id: Type.Integer({ description: '0 when the product has no price.' }),
  price: Type.Union([Type.Number(), Type.Null()], { description: 'What one unit costs; null when the product has no price.' }),
  currency: Type.String({ description: 'ISO 4217 code; "" when the product has no price.' }),
}, { title: 'ResolvedCode' });

/** JSON Schema of `POST /inventory/resolve-codes`: known codes, and the unknown ones (not an error). */
export const ResolvedCodesSchema = Type.Object({
  items: Type.Array(ResolvedCodeSchema, { description: 'Known codes, in request order.' }),
  unknown: Type.Array(Type.String(), { description: 'Codes that matched no product or variation.' }),
}, { title: 'ResolvedCodes' });

export function generatedCodeResource(result: catalog.GenerateCodeResponse) {
  return { value: result.value };
}

export function resolvedCodesResource(result: catalog.ResolveCodesResponse) {
  return {
    items: result.items.map((item) => ({
      code: item.code,
      matched_by: item.matchedBy,
      product_id: item.productId,
      variation_id: item.variationId,
      name: item.name,
      sku: item.sku,
      barcode: item.barcode,
      price_id: item.priceId,
      price: amountOrNull(item.price),
      currency: item.currency,
    })),
    unknown: result.unknown,
  };
}
