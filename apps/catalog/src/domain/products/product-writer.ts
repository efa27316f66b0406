import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams } from '@storefront/errors';
import { Product, Variation, type JsonObject } from '../../persistence/entities';
import { existingProductIds, lockSlugBase, priceIdsOf, slugsLike } from '../../persistence/products.repository';
import { deleteLevelsExcept, ensureLevelRows, levelKey, lockLevels } from '../../persistence/stock.repository';
import { setProductTerms, termIdsIn } from '../../persistence/terms.repository';
import type { Actor } from '../shared/actor';
import { parseIdList } from '../posts/collection-query';
import type { CatalogDeps } from '../deps';
import { mergeMeta } from '../shared/meta';
import { assertCanAssignAuthor, assertCanCreate, assertCanUpdate } from '../posts/post-permissions';
import { PRODUCT_RULES } from '../posts/post-types';
import { assertCodesFree } from './product-codes';
import { parseProductScalars, type ProductInput, type ProductScalars } from './product-input';
import { parsePrices, replacePrices, type PriceData } from './product-prices';
import { deleteVariations, parseVariations, replaceVariations, type VariationData } from './product-variations';
import { firstFreeSlug, slugify } from '../shared/slug';
import { recordLevelChanges } from '../stock/stock-ledger';
import { requireStockQuantity } from '../stock/stock-math';
import type { Taxonomy } from '../terms/term-rules';

// Writing a product: every field is checked before the first write, then the
// row, its terms, prices, variations and stock, in the caller's transaction.

interface ParsedInput {
  scalars: ProductScalars;
  slug?: string;
  meta?: JsonObject;
  categories?: number[];
  tags?: number[];
  prices?: PriceData[];
  variations?: VariationData[];
  bundleProductIds?: number[];
  stockQuantity?: number;
}

function parseInput(input: ProductInput, storeCurrency: string): ParsedInput {
  return {
    scalars: parseProductScalars(input),
    slug: input.slug,
    meta: input.meta,
    categories: input.categories && parseIdList('shop_product_category', input.categories),
    tags: input.tags && parseIdList('shop_product_tag', input.tags),
    prices: input.prices && parsePrices(input.prices, storeCurrency),
    variations: input.variations && parseVariations(input.variations),
    bundleProductIds: input.bundleProductIds && parseIdList('bundle_product_ids', input.bundleProductIds),
    stockQuantity:
      input.stockQuantity === undefined ? undefined : requireStockQuantity('stock_quantity', input.stockQuantity),
  };
}

/** The store currency, asked of the store settings only when a price is written without one. */
export async function currencyFor(deps: CatalogDeps, input: ProductInput): Promise<string> {
  return input.prices?.some((p) => !p.currency) ? deps.store.currency() : '';
}

/** `storeCurrency`: from `currencyFor`, read before the transaction (a remote call). */
export async function createProduct(
  em: EntityManager,
  deps: CatalogDeps,
  actor: Actor,
  input: ProductInput,
  storeCurrency: string,
): Promise<Product> {
  const parsed = parseInput(input, storeCurrency);
  const status = parsed.scalars.status ?? 'draft';
  assertCanCreate(PRODUCT_RULES, actor, status);
  const authorId = parsed.scalars.authorId ?? actor.userId;
  assertCanAssignAuthor(PRODUCT_RULES, actor, authorId);
  const now = deps.now();
  const product = em.create(Product, {
    slug: '',
    status,
    title: '',
    content: '',
    excerpt: '',
    menuOrder: 0,
    createdAt: now,
    modifiedAt: now,
    meta: mergeMeta({}, parsed.meta),
    productType: 'simple',
    sku: '',
    barcode: '',
    manageStock: false,
    stockStatus: 'instock',
    backordersAllowed: false,
    hideStock: false,
    lowStockThreshold: null,
    shippingRequired: true,
    downloadable: false,
    downloads: [],
    bundleProductIds: [],
    images: [],
    ...parsed.scalars,
    authorId,
  });
  await assignSlug(em, product, parsed.slug ?? '');
  await em.flush();
  await writeDependents(em, deps, actor, product, parsed, 'initial');
  return product;
}

export async function updateProduct(
  em: EntityManager,
  deps: CatalogDeps,
  actor: Actor,
  product: Product,
  input: ProductInput,
  storeCurrency: string,
): Promise<Product> {
  const parsed = parseInput(input, storeCurrency);
  assertCanUpdate(PRODUCT_RULES, actor, parsed.scalars.status);
  if (parsed.scalars.authorId !== undefined && parsed.scalars.authorId !== product.authorId) {
    assertCanAssignAuthor(PRODUCT_RULES, actor, parsed.scalars.authorId);
  }
  Object.assign(product, parsed.scalars);
  if (parsed.meta) product.meta = mergeMeta(product.meta, parsed.meta);
  if (parsed.slug !== undefined) await assignSlug(em, product, parsed.slug);
  product.modifiedAt = deps.now();
  await em.flush();
  await writeDependents(em, deps, actor, product, parsed, 'product_update');
  return product;
}

/** A free slug from the requested one, else from the title (`name`, `name-2`, ...). */
async function assignSlug(em: EntityManager, product: Product, requested: string): Promise<void> {
  const base = slugify(requested) || slugify(product.title) || 'product';
  // Until commit, so a concurrent writer of the same base sees this slug as taken.
  await lockSlugBase(em, base);
  product.slug = firstFreeSlug(base, await slugsLike(em, base, product.id ?? 0));
}

async function writeDependents(
  em: EntityManager,
  deps: CatalogDeps,
  actor: Actor,
  product: Product,
  parsed: ParsedInput,
  stockReason: string,
): Promise<void> {
  await writeTerms(em, product.id, 'shop_product_category', parsed.categories);
  await writeTerms(em, product.id, 'shop_product_tag', parsed.tags);
  if (parsed.prices) await replacePrices(em, product.id, parsed.prices);
  const written = await writeVariations(em, product, parsed.variations);
  await assertVariationPricesExist(em, product.id);
  await writeBundle(em, product, parsed.bundleProductIds);
  await assertCodesFree(em, product);
  await syncStock(em, deps, actor, product, { product: parsed.stockQuantity, variations: written }, stockReason);
}

async function writeTerms(
  em: EntityManager,
  productId: number,
  taxonomy: Taxonomy,
  ids: number[] | undefined,
): Promise<void> {
  if (!ids) return;
  const found = new Set(await termIdsIn(em, taxonomy, ids));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalidParams({ [taxonomy]: `Unknown ${taxonomy} id(s): ${unknown.join(', ')}.` });
  await setProductTerms(em, productId, taxonomy, ids);
}

async function writeVariations(em: EntityManager, product: Product, items: VariationData[] | undefined) {
  if (product.productType !== 'variable') {
    if (items?.length) throw invalidParams({ variations: 'Only variable products have variations.' });
    await deleteVariations(em, product.id);
    return [];
  }
  if (!items) return [];
  const variations = await replaceVariations(em, product.id, items);
  return variations.map((variation, i) => ({ variation, stockQuantity: items[i].stockQuantity }));
}

/** A variation's price must be one of its product's prices (0 = the first one). */
async function assertVariationPricesExist(em: EntityManager, productId: number): Promise<void> {
  const variations = await em.find(Variation, { productId });
  if (!variations.some((v) => v.priceId !== 0)) return;
  const priceIds = new Set(await priceIdsOf(em, productId));
  const bad = variations.filter((v) => v.priceId !== 0 && !priceIds.has(v.priceId));
  if (bad.length) {
    throw invalidParams({
      variations: `price_id ${bad.map((v) => v.priceId).join(', ')} is not a price of this product.`,
    });
  }
}

async function writeBundle(em: EntityManager, product: Product, ids: number[] | undefined): Promise<void> {
  if (ids === undefined) return;
  if (ids.length && product.productType !== 'bundle') {
    throw invalidParams({ bundle_product_ids: 'Only bundle products list bundled products.' });
  }
  if (ids.includes(product.id)) throw invalidParams({ bundle_product_ids: 'A bundle cannot contain itself.' });
  const found = new Set(await existingProductIds(em, ids));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalidParams({ bundle_product_ids: `Unknown product id(s): ${unknown.join(', ')}.` });
  product.bundleProductIds = ids;
  await em.flush();
}

interface RequestedLevels {
  product?: number;
  variations: Array<{ variation: Variation; stockQuantity?: number }>;
}

/**
 * Keeps one level row per stock target (variation 0, or each variation of a
 * variable product) and applies requested quantities as movements.
 */
async function syncStock(
  em: EntityManager,
  deps: CatalogDeps,
  actor: Actor,
  product: Product,
  requested: RequestedLevels,
  reason: string,
) {
  const isVariable = product.productType === 'variable';
  if (requested.product !== undefined && (isVariable || !product.manageStock)) {
    throw invalidParams({
      stock_quantity: isVariable ? 'Set the stock of each variation instead.' : 'stock_quantity needs manage_stock.',
    });
  }
  if (!product.manageStock && requested.variations.some((v) => v.stockQuantity !== undefined)) {
    throw invalidParams({ variations: 'stock_quantity needs manage_stock.' });
  }
  const targets = isVariable ? (await em.find(Variation, { productId: product.id })).map((v) => v.id) : [0];
  await deleteLevelsExcept(em, product.id, targets);
  if (!product.manageStock) return;
  const now = deps.now();
  await ensureLevelRows(
    em,
    targets.map((variationId) => ({ productId: product.id, variationId })),
    now,
  );
  const wanted = isVariable
    ? requested.variations
        .filter((v) => v.stockQuantity !== undefined)
        .map((v) => ({ variationId: v.variation.id, quantity: v.stockQuantity! }))
    : requested.product !== undefined
      ? [{ variationId: 0, quantity: requested.product }]
      : [];
  if (!wanted.length) return;
  const locked = await lockLevels(
    em,
    wanted.map((w) => ({ productId: product.id, variationId: w.variationId })),
  );
  const changes = wanted
    .map((w) => ({
      productId: product.id,
      variationId: w.variationId,
      before: locked.get(levelKey(product.id, w.variationId)) ?? 0,
      after: w.quantity,
    }))
    .filter((c) => c.before !== c.after);
  await recordLevelChanges(em, deps, changes, { userId: actor.userId, reason, note: '', reservationId: null });
}
