import { DomainError, invalidParams } from '@storefront/errors';
import { barcodesInUse, ownersOfCodes, skusWithPrefix, type CodeOwner } from '../../persistence/codes.repository';
import type { Product } from '../../persistence/entities';
import { findProducts, loadProductDetails } from '../../persistence/products.repository';
import type { ProductDetails } from '../../persistence/product-read-model';
import { findTermRow } from '../../persistence/terms.repository';
import { requireStockManager, type Actor } from '../shared/actor';
import { MAX_LIST_PARAM } from '../posts/collection-query';
import type { CatalogDeps } from '../deps';
import { randomInStoreEan13 } from './ean13';
import { isId } from '../shared/ids';
import { limitText } from '../products/product-input';
import { resolveVariationPrice } from '../products/product-view';
import { purchasableName } from '../lookup/purchasable';
import { nextSku, skuPrefix } from './sku';
import { termNotFound } from '../terms/term-rules';

export interface ResolvedCode {
  code: string;
  matchedBy: 'sku' | 'barcode';
  productId: number;
  variationId: number;
  name: string;
  sku: string;
  barcode: string;
  priceId: number;
  price: string;
  currency: string;
}

const BARCODE_BATCH = 5;
const BARCODE_ROUNDS = 10;

/** Inventory helpers of the admin: fresh codes, and lookups of scanned ones. */
export class Inventory {
  constructor(private readonly deps: CatalogDeps) {}

  async generateCode(actor: Actor, input: { type: string; name: string; categoryId: number }): Promise<string> {
    requireStockManager(actor);
    if (input.type === 'sku') return this.generateSku(limitText('name', input.name, 200), input.categoryId);
    if (input.type === 'barcode') return this.generateBarcode();
    throw invalidParams({ type: 'type must be sku or barcode.' });
  }

  async resolveCodes(actor: Actor, codes: readonly string[]): Promise<{ items: ResolvedCode[]; unknown: string[] }> {
    requireStockManager(actor);
    if (!codes.length || codes.length > MAX_LIST_PARAM) {
      throw invalidParams({ codes: `codes needs 1 to ${MAX_LIST_PARAM} codes.` });
    }
    const wanted = codes.map((c) => limitText('codes', c.trim(), 64));
    const em = this.deps.db.em();
    const owners = await ownersOfCodes(em, wanted);
    const productIds = [...new Set(owners.map((o) => o.productId))];
    const products = new Map((await findProducts(em, productIds)).map((p) => [p.id, p]));
    const details = await loadProductDetails(em, productIds);
    const items: ResolvedCode[] = [];
    const unknown: string[] = [];
    for (const code of wanted) {
      const match = matchCode(code, owners);
      const product = match && products.get(match.owner.productId);
      if (match && product) items.push(describeMatch(code, match, product, details));
      else unknown.push(code);
    }
    return { items, unknown };
  }

  private async generateSku(name: string, categoryId: number): Promise<string> {
    let categoryName = '';
    if (categoryId) {
      const row = isId(categoryId) ? await findTermRow(this.deps.db.em(), 'shop_product_category', categoryId) : null;
      if (!row) throw termNotFound();
      categoryName = row.term.name;
    }
    const prefix = skuPrefix(name, categoryName);
    return nextSku(prefix, await skusWithPrefix(this.deps.db.em(), `${prefix}-`));
  }

  /** Random in-store EAN-13s, checked in batches against every product and variation. */
  private async generateBarcode(): Promise<string> {
    for (let round = 0; round < BARCODE_ROUNDS; round++) {
      const candidates = Array.from({ length: BARCODE_BATCH }, () => randomInStoreEan13());
      const taken = await barcodesInUse(this.deps.db.em(), candidates);
      const free = candidates.find((c) => !taken.has(c));
      if (free) return free;
    }
    throw new DomainError('shop_code_generation_failed', 503, 'No free barcode found; try again.');
  }
}

/** A SKU match (case-insensitive) wins over a barcode match. */
interface CodeMatch {
  owner: CodeOwner;
  by: 'sku' | 'barcode';
}

function matchCode(code: string, owners: readonly CodeOwner[]): CodeMatch | null {
  const bySku = owners.find((o) => o.sku && o.sku.toLowerCase() === code.toLowerCase());
  if (bySku) return { owner: bySku, by: 'sku' };
  const byBarcode = owners.find((o) => o.barcode && o.barcode === code);
  return byBarcode ? { owner: byBarcode, by: 'barcode' } : null;
}

/** The product or variation a code names, with the price it sells at. */
function describeMatch(code: string, match: CodeMatch, product: Product, details: ProductDetails): ResolvedCode {
  const variation = details.variations.find((v) => v.id === match.owner.variationId) ?? null;
  const prices = details.prices.filter((p) => p.productId === product.id);
  const first = prices[0];
  const resolved = variation
    ? resolveVariationPrice(variation, prices)
    : { priceId: first?.id ?? 0, unitAmount: first?.amount ?? '', currency: first?.currency ?? '' };
  return {
    code,
    matchedBy: match.by,
    productId: product.id,
    variationId: match.owner.variationId,
    name: purchasableName(product, variation),
    sku: match.owner.sku,
    barcode: match.owner.barcode,
    priceId: resolved.priceId,
    price: resolved.unitAmount,
    currency: resolved.currency,
  };
}
