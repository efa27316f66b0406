import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams } from '@storefront/errors';
import { Variation } from '../../persistence/entities';
import { optionalAmount } from '../shared/amounts';
import { isIdOrZero } from '../shared/ids';
import { parseBarcode, parseSku, parseUrl, type VariationInputData } from './product-input';
import { requireStockQuantity } from '../stock/stock-math';

const MAX_VARIATIONS = 200;
const MAX_ATTRIBUTES = 10;

export interface VariationData {
  id?: number;
  attributes: Record<string, string>;
  sku: string;
  barcode: string;
  priceId: number;
  amount: string | null;
  image: string;
  /** Level to set (with a movement) when the product manages stock. */
  stockQuantity?: number;
}

/** Attribute name -> value as strings (contract: `{"color": "red"}`); at least one, names unique. */
export function parseAttributes(
  field: string,
  attributes: Record<string, unknown> | undefined,
): Record<string, string> {
  const entries = Object.entries(attributes ?? {});
  if (!entries.length || entries.length > MAX_ATTRIBUTES) {
    throw invalidParams({ [field]: `A variation needs 1 to ${MAX_ATTRIBUTES} attributes.` });
  }
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const key = name.trim();
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value).trim() : '';
    if (!key || key.length > 100 || !text || text.length > 200) {
      throw invalidParams({
        [field]: 'Attribute names and values must be non-empty text (100 / 200 characters at most).',
      });
    }
    out[key] = text;
  }
  return out;
}

/** A stable text for an attribute set, to find two variations that mean the same thing. */
export function attributeSignature(attributes: Record<string, string>): string {
  return Object.keys(attributes)
    .sort()
    .map((k) => `${k.toLowerCase()}=${attributes[k].toLowerCase()}`)
    .join('&');
}

export function parseVariation(input: VariationInputData, index: number): VariationData {
  const field = `variations[${index}]`;
  if (!isIdOrZero(input.priceId)) throw invalidParams({ [`${field}.price_id`]: 'price_id must be a price id or 0.' });
  if (input.stockQuantity !== undefined) requireStockQuantity(`${field}.stock_quantity`, input.stockQuantity);
  return {
    id: input.id,
    attributes: parseAttributes(`${field}.attributes`, input.attributes),
    sku: parseSku(`${field}.sku`, input.sku),
    barcode: parseBarcode(`${field}.barcode`, input.barcode),
    priceId: input.priceId,
    amount: optionalAmount(`${field}.amount`, input.amount),
    image: input.image.trim() ? parseUrl(`${field}.image`, input.image.trim()) : '',
    stockQuantity: input.stockQuantity,
  };
}

export function parseVariations(inputs: readonly VariationInputData[]): VariationData[] {
  if (inputs.length > MAX_VARIATIONS) throw invalidParams({ variations: `At most ${MAX_VARIATIONS} variations.` });
  const variations = inputs.map(parseVariation);
  const signatures = variations.map((v) => attributeSignature(v.attributes));
  if (new Set(signatures).size !== signatures.length) {
    throw invalidParams({ variations: 'Two variations have the same attributes.' });
  }
  return variations;
}

/** Replaces a product's variations like its prices; returns them aligned with `items`. */
export async function replaceVariations(
  em: EntityManager,
  productId: number,
  items: readonly VariationData[],
): Promise<Variation[]> {
  const existing = new Map((await em.find(Variation, { productId })).map((v) => [v.id, v]));
  const foreign = items.filter((item) => item.id !== undefined && !existing.has(item.id));
  if (foreign.length) {
    throw invalidParams({
      variations: `Variation id(s) ${foreign.map((f) => f.id).join(', ')} do not belong to this product.`,
    });
  }
  const kept = new Set(items.map((item) => item.id).filter((id) => id !== undefined));
  for (const variation of existing.values()) if (!kept.has(variation.id)) em.remove(variation);
  const variations = items.map((item, position) => {
    const { id, stockQuantity: _level, ...fields } = item;
    const variation = id !== undefined ? existing.get(id)! : em.create(Variation, { productId, ...fields, position });
    Object.assign(variation, fields, { position });
    return variation;
  });
  await em.flush();
  return variations;
}

export async function deleteVariations(em: EntityManager, productId: number): Promise<void> {
  for (const variation of await em.find(Variation, { productId })) em.remove(variation);
  await em.flush();
}
