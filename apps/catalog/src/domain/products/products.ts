import type { EntityManager } from '@mikro-orm/postgresql';
import { CatalogEvents } from '@storefront/domain-events/catalog';
import { gone } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { isUniqueViolation } from '@storefront/persistence';
import type { Product } from '../../persistence/entities';
import { deleteProductRows, listProductKeys, loadProductDetails } from '../../persistence/products.repository';
import type { Actor } from '../shared/actor';
import {
  assertPageExists,
  parseContext,
  parseIdList,
  parsePostCollection,
  totalPages,
  type PostCollectionInput,
} from '../posts/collection-query';
import type { CatalogDeps } from '../deps';
import { assertCanDelete, assertCanList, assertCanRead } from '../posts/post-permissions';
import { PRODUCT_RULES } from '../posts/post-types';
import type { ProductInput } from './product-input';
import { productView, type ProductView } from './product-view';
import { createProduct, currencyFor, updateProduct } from './product-writer';
import { invalidProductId, requireProduct } from '../stock/stock-targets';
import {
  readKeyedProduct,
  readProductKey,
  readProductsByIds,
  readProductsInOrder,
  viaReader,
} from '../../persistence/product-read';
import { productsEtag, type ProductRead } from './product-etag';
import { isId } from '../shared/ids';

export interface ProductListInput {
  query?: PostCollectionInput;
  shopProductCategory: number[];
  shopProductCategoryExclude: number[];
  shopProductTag: number[];
  shopProductTagExclude: number[];
}

const SLUG_ATTEMPTS = 3;

/** The shop_product content type: posts-controller reads and writes. */
export class ProductCatalog {
  constructor(private readonly deps: CatalogDeps) {}

  /**
   * A conditional read: the page's keys first (light), then the documents only
   * when `ifNoneMatch` is not the page's current ETag.
   */
  async list(actor: Actor, input: ProductListInput, ifNoneMatch = ''): Promise<ProductRead<ProductView[]>> {
    const query = parsePostCollection(input.query);
    assertCanList(PRODUCT_RULES, actor, query.statuses, query.context);
    const run = viaReader(this.deps.db.reader);
    const listQuery = {
      ...query,
      categories: parseIdList('shop_product_category', input.shopProductCategory),
      categoriesExclude: parseIdList('shop_product_category_exclude', input.shopProductCategoryExclude),
      tags: parseIdList('shop_product_tag', input.shopProductTag),
      tagsExclude: parseIdList('shop_product_tag_exclude', input.shopProductTagExclude),
    };
    // No ETag to compare: the documents come with the keys, in one round trip.
    const { keys, total, page } = await listProductKeys(run, listQuery, !ifNoneMatch);
    assertPageExists(query, total);
    const etag = productsEtag(keys, total, actor);
    const pages = totalPages(total, query.perPage);
    if (ifNoneMatch === etag) return { notModified: true, etag, value: [], total, totalPages: pages };
    const { products, details } = page ?? (await readProductsInOrder(run, keys.map((k) => k.id)));
    const views = products.map((product) => productView(product, details, actor));
    return { notModified: false, etag, value: views, total, totalPages: pages };
  }

  /** A conditional read of one product: its key, then its document unless `ifNoneMatch` still holds. */
  async get(actor: Actor, id: number, context: string, ifNoneMatch = ''): Promise<ProductRead<ProductView | undefined>> {
    const run = viaReader(this.deps.db.reader);
    if (!isId(id)) throw invalidProductId();
    // No ETag to compare: key and document in one round trip; else the key first.
    const page = ifNoneMatch ? undefined : await readKeyedProduct(run, id);
    const [key] = page ? page.keys : await readProductKey(run, id);
    if (!key) throw invalidProductId();
    assertCanRead(PRODUCT_RULES, actor, key.status, parseContext(context));
    const etag = productsEtag([key], 1, actor);
    if (ifNoneMatch === etag) return { notModified: true, etag, value: undefined, total: 1, totalPages: 1 };
    const { products, details } = page ?? (await readProductsByIds(run, [id]));
    if (!products[0]) throw invalidProductId(); // deleted in between
    return { notModified: false, etag, value: productView(products[0], details, actor), total: 1, totalPages: 1 };
  }

  async create(actor: Actor, input: ProductInput): Promise<ProductView> {
    const currency = await currencyFor(this.deps, input);
    return this.writeWithFreshSlug(async (em) => {
      const product = await createProduct(em, this.deps, actor, input, currency);
      changed(em, product.id);
      return (await this.views(em, actor, [product]))[0];
    });
  }

  async update(actor: Actor, id: number, input: ProductInput): Promise<ProductView> {
    const currency = await currencyFor(this.deps, input);
    return this.writeWithFreshSlug(async (em) => {
      const product = await updateProduct(em, this.deps, actor, await requireProduct(em, id), input, currency);
      changed(em, product.id);
      return (await this.views(em, actor, [product]))[0];
    });
  }

  /** Without force: to the trash (410 when already there). With force: gone for good; returns the previous record. */
  async delete(actor: Actor, id: number, force: boolean): Promise<{ product: ProductView; deleted: boolean }> {
    return this.deps.db.em().transactional(async (em) => {
      const product = await requireProduct(em, id);
      assertCanDelete(PRODUCT_RULES, actor);
      changed(em, product.id);
      if (force) {
        const previous = (await this.views(em, actor, [product]))[0];
        await deleteProductRows(em, product.id);
        return { product: previous, deleted: true };
      }
      if (product.status === 'trash') throw gone('rest_already_trashed', 'The product has already been deleted.');
      product.status = 'trash';
      product.modifiedAt = this.deps.now();
      await em.flush();
      return { product: (await this.views(em, actor, [product]))[0], deleted: false };
    });
  }

  private async views(em: EntityManager, actor: Actor, products: Product[]): Promise<ProductView[]> {
    const details = await loadProductDetails(
      em,
      products.map((p) => p.id),
    );
    return products.map((product) => productView(product, details, actor));
  }

  /**
   * Writers of the same slug base queue on an advisory lock (product-writer);
   * the unique index still catches the rare cross-base clash ("a-2" asked for
   * explicitly while "a" is numbered to "a-2"), and that writer retries.
   */
  private async writeWithFreshSlug<T>(write: (em: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.db.em().transactional(write);
      } catch (err) {
        if (attempt >= SLUG_ATTEMPTS || !isUniqueViolation(err, 'products_slug_unique')) throw err;
      }
    }
  }
}

/** Priced carts hold copies of product data: they drop them on this event (recorded in the writing transaction). */
function changed(em: EntityManager, productId: number): void {
  recordEvent(em, CatalogEvents.purchasablesChanged, { productIds: [productId] });
}
