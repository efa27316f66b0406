import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, invalidParams } from '@storefront/errors';
import { isUniqueViolation } from '@storefront/persistence';
import { Term, type JsonObject } from '../../persistence/entities';
import {
  deleteTermRows,
  descendantIds,
  findTermRow,
  listTerms,
  termNamed,
  termSlugsLike,
  type TermRow,
} from '../../persistence/terms.repository';
import type { Actor } from '../shared/actor';
import {
  parseContext,
  parseIdList,
  parseOrder,
  parseOrderby,
  parsePage,
  parseSearch,
  parseSlugList,
  totalPages,
} from '../posts/collection-query';
import type { CatalogDeps } from '../deps';
import { isId, isIdOrZero } from '../shared/ids';
import { mergeMeta } from '../shared/meta';
import { limitText } from '../products/product-input';
import { firstFreeSlug, slugify } from '../shared/slug';
import {
  assertCanDeleteTerms,
  assertCanReadTerms,
  assertCanWriteTerms,
  isHierarchical,
  parseTaxonomy,
  requireTermName,
  termNotFound,
  trashNotSupported,
  type Taxonomy,
} from './term-rules';

export interface TermListInput {
  taxonomy: string;
  page?: number;
  perPage?: number;
  search: string;
  slug: string[];
  orderby: string;
  order: string;
  include: number[];
  exclude: number[];
  hideEmpty: boolean;
  parent?: number;
  post?: number;
  context: string;
}

export interface TermFieldsInput {
  name?: string;
  slug?: string;
  description?: string;
  parent?: number;
  meta?: JsonObject;
}

const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'count', 'term_group', 'description'] as const;

const duplicateSlug = () => badRequest('duplicate_term_slug', 'The slug is already in use by another term.');

/** Product categories and tags with the host platform's terms-controller rules. */
export class TermCatalog {
  constructor(private readonly deps: CatalogDeps) {}

  async list(actor: Actor, input: TermListInput): Promise<{ terms: TermRow[]; total: number; totalPages: number }> {
    const taxonomy = parseTaxonomy(input.taxonomy);
    assertCanReadTerms(actor, parseContext(input.context));
    const page = parsePage(input.page, input.perPage);
    if (input.parent !== undefined && !isIdOrZero(input.parent)) {
      throw invalidParams({ parent: 'parent must be a term id or 0.' });
    }
    if (input.post !== undefined && !isId(input.post)) throw invalidParams({ post: 'post must be a product id.' });
    const orderby = parseOrderby(input.orderby, TERM_ORDERBY, 'name');
    const include = parseIdList('include', input.include);
    if (orderby === 'include' && !include.length) throw invalidParams({ orderby: 'orderby=include needs include.' });
    const { rows, total } = await listTerms(this.deps.db.em(), {
      taxonomy,
      ...page,
      search: parseSearch(input.search),
      slugs: parseSlugList('slug', input.slug),
      orderby,
      order: parseOrder(input.order, 'asc'),
      include,
      exclude: parseIdList('exclude', input.exclude),
      hideEmpty: input.hideEmpty,
      parent: input.parent,
      post: input.post,
    });
    return { terms: rows, total, totalPages: totalPages(total, page.perPage) };
  }

  async get(actor: Actor, taxonomyName: string, id: number, context: string): Promise<TermRow> {
    const taxonomy = parseTaxonomy(taxonomyName);
    const row = await this.find(this.deps.db.em(), taxonomy, id);
    assertCanReadTerms(actor, parseContext(context));
    return row;
  }

  async create(actor: Actor, taxonomyName: string, fields: TermFieldsInput): Promise<TermRow> {
    const taxonomy = parseTaxonomy(taxonomyName);
    assertCanWriteTerms(actor, 'rest_cannot_create');
    const name = requireTermName(fields.name, true)!;
    return this.write(async (em) => {
      const parent = await this.checkParent(em, taxonomy, fields.parent ?? 0, 0);
      await this.assertNameFree(em, taxonomy, name, parent, 0);
      const term = em.create(Term, {
        taxonomy,
        name,
        slug: await this.slugFor(em, taxonomy, fields.slug, name, 0),
        description: limitText('description', fields.description ?? '', 10_000),
        parent,
        meta: mergeMeta({}, fields.meta),
      });
      await em.flush();
      return this.find(em, taxonomy, term.id);
    });
  }

  async update(actor: Actor, taxonomyName: string, id: number, fields: TermFieldsInput): Promise<TermRow> {
    const taxonomy = parseTaxonomy(taxonomyName);
    return this.write(async (em) => {
      const { term } = await this.find(em, taxonomy, id);
      assertCanWriteTerms(actor, 'rest_cannot_update');
      const name = requireTermName(fields.name, false) ?? term.name;
      const parent =
        fields.parent === undefined ? term.parent : await this.checkParent(em, taxonomy, fields.parent, term.id);
      if (name !== term.name || parent !== term.parent) await this.assertNameFree(em, taxonomy, name, parent, term.id);
      if (fields.slug !== undefined) term.slug = await this.slugFor(em, taxonomy, fields.slug, name, term.id);
      if (fields.description !== undefined) term.description = limitText('description', fields.description, 10_000);
      Object.assign(term, { name, parent, meta: mergeMeta(term.meta, fields.meta) });
      await em.flush();
      return this.find(em, taxonomy, term.id);
    });
  }

  /** Permanent only; children move up to the deleted term's parent. Returns the previous record. */
  async delete(actor: Actor, taxonomyName: string, id: number, force: boolean): Promise<TermRow> {
    const taxonomy = parseTaxonomy(taxonomyName);
    return this.deps.db.em().transactional(async (em) => {
      const previous = await this.find(em, taxonomy, id);
      assertCanDeleteTerms(actor);
      if (!force) throw trashNotSupported();
      await deleteTermRows(em, previous.term);
      return previous;
    });
  }

  private async find(em: EntityManager, taxonomy: Taxonomy, id: number): Promise<TermRow> {
    const row = isId(id) ? await findTermRow(em, taxonomy, id) : null;
    if (!row) throw termNotFound();
    return row;
  }

  /** Tags are flat; a category's parent must be another category, and not one of its descendants. */
  private async checkParent(em: EntityManager, taxonomy: Taxonomy, parent: number, selfId: number): Promise<number> {
    if (parent === 0) return 0;
    if (!isHierarchical(taxonomy)) {
      throw badRequest('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');
    }
    if (!isId(parent) || !(await findTermRow(em, taxonomy, parent))) {
      throw badRequest('rest_term_invalid', 'Parent term does not exist.');
    }
    if (selfId && (parent === selfId || (await descendantIds(em, selfId)).includes(parent))) {
      throw invalidParams({ parent: 'A term cannot be its own ancestor.' });
    }
    return parent;
  }

  private async assertNameFree(
    em: EntityManager,
    taxonomy: Taxonomy,
    name: string,
    parent: number,
    selfId: number,
  ): Promise<void> {
    const existing = await termNamed(em, taxonomy, name, parent, selfId);
    if (existing) {
      throw badRequest('term_exists', 'A term with the name provided already exists with this parent.', {
        term_id: existing,
      });
    }
  }

  /** An explicit slug must be free; one derived from the name gets a numeric suffix instead. */
  private async slugFor(
    em: EntityManager,
    taxonomy: Taxonomy,
    requested: string | undefined,
    name: string,
    selfId: number,
  ): Promise<string> {
    const explicit = slugify(requested ?? '');
    const base = explicit || slugify(name) || 'term';
    const taken = await termSlugsLike(em, taxonomy, base, selfId);
    if (explicit && taken.has(explicit)) throw duplicateSlug();
    return firstFreeSlug(base, taken);
  }

  private async write(work: (em: EntityManager) => Promise<TermRow>): Promise<TermRow> {
    try {
      return await this.deps.db.em().transactional(work);
    } catch (err) {
      if (isUniqueViolation(err, 'terms_taxonomy_slug_unique')) throw duplicateSlug();
      throw err;
    }
  }
}
