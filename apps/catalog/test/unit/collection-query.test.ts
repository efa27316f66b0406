import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import {
  assertPageExists,
  parseIdList,
  parsePage,
  parsePostCollection,
  type PostCollectionInput,
} from '../../src/domain/posts/collection-query';
import { firstFreeSlug, slugify } from '../../src/domain/shared/slug';

const input = (q: Partial<PostCollectionInput>): PostCollectionInput => ({
  search: '',
  slug: [],
  status: [],
  orderby: '',
  order: '',
  include: [],
  exclude: [],
  context: '',
  ...q,
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as DomainError).code;
  }
};

describe('collection parameters', () => {
  it('defaults to the published first page by date, newest first', () => {
    expect(parsePostCollection(input({}))).toMatchObject({
      page: 1,
      perPage: 10,
      statuses: ['publish'],
      orderby: 'date',
      order: 'desc',
      context: 'view',
    });
    expect(parsePostCollection(input({ status: ['any'] })).statuses).toEqual([
      'publish',
      'draft',
      'pending',
      'private',
    ]);
  });

  it('bounds pages, lists and searches', () => {
    expect(parsePage(undefined, undefined, 25)).toEqual({ page: 1, perPage: 25 });
    expect(codeOf(() => parsePage(1, 101))).toBe('rest_invalid_param');
    expect(codeOf(() => parsePage(0, 10))).toBe('rest_invalid_param');
    expect(
      codeOf(() =>
        parseIdList(
          'include',
          Array.from({ length: 101 }, (_, i) => i + 1),
        ),
      ),
    ).toBe('rest_invalid_param');
    expect(codeOf(() => parseIdList('include', [2 ** 31]))).toBe('rest_invalid_param');
    expect(parseIdList('include', [3, 3, 1])).toEqual([3, 1]);
    expect(codeOf(() => parsePostCollection(input({ search: 'x'.repeat(201) })))).toBe('rest_invalid_param');
  });

  it('refuses a page past the last one only when there are results', () => {
    expect(codeOf(() => assertPageExists({ page: 3, perPage: 10 }, 20))).toBe('rest_post_invalid_page_number');
    expect(codeOf(() => assertPageExists({ page: 2, perPage: 10 }, 20))).toBe('ok');
    expect(codeOf(() => assertPageExists({ page: 5, perPage: 10 }, 0))).toBe('ok');
  });
});

describe('slugs', () => {
  it('sanitizes titles like the host platform', () => {
    expect(slugify('Crème Brûlée — 2 pcs!')).toBe('creme-brulee-2-pcs');
    expect(slugify('  ')).toBe('');
  });

  it('picks the first free numbered slug', () => {
    expect(firstFreeSlug('mug', new Set())).toBe('mug');
    expect(firstFreeSlug('mug', new Set(['mug', 'mug-2']))).toBe('mug-3');
  });
});
