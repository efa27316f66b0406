import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '@storefront/errors';
import { ownersOfCodes } from '../../persistence/codes.repository';
import { Variation, type Product } from '../../persistence/entities';

// A SKU or barcode names one product or variation, so scanning or typing it
// (inventory/resolve-codes) finds exactly one thing.

const duplicatedSku = (sku: string) =>
  badRequest('shop_product_invalid_sku', `Invalid or duplicated SKU: ${sku}.`, { sku });
const duplicatedBarcode = (barcode: string) =>
  badRequest('shop_product_invalid_barcode', `Invalid or duplicated barcode: ${barcode}.`, { barcode });

function firstRepeated(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/** The product's own SKUs and barcodes must differ from each other and from every other product's. */
export async function assertCodesFree(em: EntityManager, product: Product): Promise<void> {
  const variations = await em.find(Variation, { productId: product.id });
  const skus = [product.sku, ...variations.map((v) => v.sku)].filter(Boolean);
  const barcodes = [product.barcode, ...variations.map((v) => v.barcode)].filter(Boolean);
  const repeatedSku = firstRepeated(skus.map((s) => s.toLowerCase()));
  if (repeatedSku) throw duplicatedSku(repeatedSku);
  const repeatedBarcode = firstRepeated(barcodes);
  if (repeatedBarcode) throw duplicatedBarcode(repeatedBarcode);
  const others = (await ownersOfCodes(em, [...skus, ...barcodes])).filter((o) => o.productId !== product.id);
  const lowerSkus = new Set(skus.map((s) => s.toLowerCase()));
  const takenSku = others.find((o) => o.sku && lowerSkus.has(o.sku.toLowerCase()));
  if (takenSku) throw duplicatedSku(takenSku.sku);
  const takenBarcode = others.find((o) => o.barcode && barcodes.includes(o.barcode));
  if (takenBarcode) throw duplicatedBarcode(takenBarcode.barcode);
}
