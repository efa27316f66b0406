import { escapeLike } from '@storefront/persistence';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Term } from './entities';
import { containsPattern, orderByIdList, T } from './sql';

export const TAXONOMIES = ['shop_product_category', 'shop_product_tag'] as const;
export type Taxonomy = (typeof TAXONOMIES)[number];

export interface TermListQuery {
  taxonomy: Taxonomy;
  page: number;
  perPage: number;
  search: string;
  slugs: string[];
  orderby: 'id' | 'include' | 'name' | 'slug' | 'count' | 'term_group' | 'description';
  order: 'asc' | 'desc';
  include: number[];
  exclude: number[];
  hideEmpty: boolean;
  parent?: number;
  post?: number;
}

export interface TermRow {
  term: Term;
  count: number;
}

/** Published products carrying the term: the host platform's term count. */
const COUNT = `(select count(*) from ${T.productTerms} pt join ${T.products} p on p.id = pt.product_id
  where pt.term_id = t.id and p.status = 'publish')`;

const ORDER_COLUMNS: Record<Exclude<TermListQuery['orderby'], 'include'>, string> = {
  id: 't.id',
  name: 'lower(t.name)',
  slug: 't.slug',
  count: 'term_count',
  // Terms have no groups here; the platform then falls back to the id.
  term_group: 't.id',
  description: 'lower(t.description)',
};

function termWhere(q: TermListQuery): { sql: string; params: unknown[] } {
  const parts = ['t.taxonomy = ?'];
  const params: unknown[] = [q.taxonomy];
  if (q.search) {
    parts.push('(t.name ilike ? or t.slug ilike ?)');
    params.push(containsPattern(q.search), containsPattern(q.search));
  }
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (q.slugs.length) add('t.slug in (?)', q.slugs);
  if (q.include.length) add('t.id in (?)', q.include);
  if (q.exclude.length) add('t.id not in (?)', q.exclude);
  if (q.hideEmpty) add(`${COUNT} > 0`);
  if (q.parent !== undefined) add('t.parent = ?', q.parent);
  if (q.post !== undefined) {
    parts.push(`exists (select 1 from ${T.productTerms} pp where pp.term_id = t.id and pp.product_id = ?)`);
    params.push(q.post);
  }
  return { sql: `where ${parts.join(' and ')}`, params };
}

export async function listTerms(em: EntityManager, q: TermListQuery): Promise<{ rows: TermRow[]; total: number }> {
  const where = termWhere(q);
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from ${T.terms} t ${where.sql}`,
    where.params,
  );
  const order =
    q.orderby === 'include'
      ? orderByIdList(q.include, 't.id')
      : `${ORDER_COLUMNS[q.orderby]} ${q.order}, t.id ${q.order}`;
  const rows = await em.execute<Array<Record<string, unknown> & { term_count: string }>>(
    `select t.*, ${COUNT} as term_count from ${T.terms} t ${where.sql} order by ${order} limit ? offset ?`,
    [...where.params, q.perPage, (q.page - 1) * q.perPage],
  );
  return {
    rows: rows.map(({ term_count, ...row }) => ({ term: em.map(Term, row), count: Number(term_count) })),
    total: Number(count),
  };
}

export async function findTermRow(em: EntityManager, taxonomy: Taxonomy, id: number): Promise<TermRow | null> {
  const rows = await em.execute<Array<Record<string, unknown> & { term_count: string }>>(
    `select t.*, ${COUNT} as term_count from ${T.terms} t where t.taxonomy = ? and t.id = ?`,
    [taxonomy, id],
  );
  if (!rows[0]) return null;
  const { term_count, ...row } = rows[0];
  return { term: em.map(Term, row), count: Number(term_count) };
}

/** Which of `ids` are terms of `taxonomy`. */
export async function termIdsIn(em: EntityManager, taxonomy: Taxonomy, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ id: number }[]>(`select id from ${T.terms} where taxonomy = ? and id in (?)`, [
    taxonomy,
    [...ids],
  ]);
  return rows.map((r) => Number(r.id));
}

/** Replaces a product's terms of one taxonomy. */
export async function setProductTerms(
  em: EntityManager,
  productId: number,
  taxonomy: Taxonomy,
  termIds: readonly number[],
): Promise<void> {
  await em.execute(
    `delete from ${T.productTerms} pt using ${T.terms} t where pt.term_id = t.id and pt.product_id = ? and t.taxonomy = ?`,
    [productId, taxonomy],
  );
  if (!termIds.length) return;
  await em.execute(
    `insert into ${T.productTerms} (product_id, term_id) select ?, id from ${T.terms} where id in (?) on conflict do nothing`,
    [productId, [...termIds]],
  );
}

/** Every descendant id of a term (to refuse a parent that would make a cycle). */
export async function descendantIds(em: EntityManager, id: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `with recursive d(id) as (select id from ${T.terms} where parent = ? union select t.id from ${T.terms} t join d on t.parent = d.id)
     select id from d`,
    [id],
  );
  return rows.map((r) => Number(r.id));
}

export async function termSlugsLike(
  em: EntityManager,
  taxonomy: Taxonomy,
  base: string,
  exceptId: number,
): Promise<Set<string>> {
  const rows = await em.execute<{ slug: string }[]>(
    `select slug from ${T.terms} where taxonomy = ? and (slug = ? or slug like ?) and id <> ?`,
    [taxonomy, base, `${escapeLike(base)}-%`, exceptId],
  );
  return new Set(rows.map((r) => r.slug));
}

/** A term with the same name under the same parent (the platform's term_exists). */
export async function termNamed(
  em: EntityManager,
  taxonomy: Taxonomy,
  name: string,
  parent: number,
  exceptId: number,
): Promise<number | null> {
  const rows = await em.execute<{ id: number }[]>(
    `select id from ${T.terms} where taxonomy = ? and lower(name) = ? and parent = ? and id <> ? limit 1`,
    [taxonomy, name.toLowerCase(), parent, exceptId],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Deletes a term: its children move up to its parent, products lose it. */
export async function deleteTermRows(em: EntityManager, term: Term): Promise<void> {
  await em.execute(`update ${T.terms} set parent = ? where parent = ?`, [term.parent, term.id]);
  await em.execute(`delete from ${T.productTerms} where term_id = ?`, [term.id]);
  await em.execute(`delete from ${T.terms} where id = ?`, [term.id]);
}
