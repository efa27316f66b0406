import type { EntityManager } from '@mikro-orm/postgresql';
import { Term } from '../../persistence/entities';
import { countProducts, lockDemoSeed } from '../../persistence/products.repository';
import { SYSTEM_ACTOR } from '../shared/actor';
import { DEMO_CATEGORIES, DEMO_PRODUCTS, DEMO_TAGS } from './demo-catalog';
import type { CatalogDeps } from '../deps';
import { createProduct } from '../products/product-writer';
import { slugify } from '../shared/slug';

/**
 * Seeds the demo catalog when the products table is empty, in one
 * transaction under an advisory lock, so replicas starting together seed once.
 * Products go through the same writer (and rules) as the API's.
 */
export async function seedDemoCatalog(deps: CatalogDeps): Promise<boolean> {
  const currency = await deps.store.currency().catch((err: unknown) => {
    deps.logger.warn({ err }, 'store settings unavailable; demo prices in USD');
    return 'USD';
  });
  return deps.db.em().transactional(async (em) => {
    await lockDemoSeed(em);
    if ((await countProducts(em)) > 0) return false;
    const categories = await createTerms(em, 'shop_product_category', DEMO_CATEGORIES);
    const tags = await createTerms(em, 'shop_product_tag', DEMO_TAGS);
    const created = new Map<string, number>();
    for (const demo of DEMO_PRODUCTS) {
      const product = await createProduct(em, deps, SYSTEM_ACTOR, {
        ...demo.input,
        categories: demo.categories.map((name) => categories.get(name)!),
        tags: demo.tags.map((name) => tags.get(name)!),
        bundleProductIds: demo.bundles?.map((key) => created.get(key)!),
      }, currency);
      created.set(demo.key, product.id);
    }
    return true;
  });
}

async function createTerms(
  em: EntityManager,
  taxonomy: string,
  names: readonly string[],
): Promise<Map<string, number>> {
  const terms = names.map((name) =>
    em.create(Term, { taxonomy, name, slug: slugify(name), description: '', parent: 0, meta: {} }),
  );
  await em.flush();
  return new Map(terms.map((t) => [t.name, t.id]));
}
