import type { catalog } from '@storefront/proto/catalog';
import type { TermRow } from '../persistence/terms.repository';

export function toProtoTerm({ term, count }: TermRow): catalog.Term {
  return {
    id: term.id,
    taxonomy: term.taxonomy,
    name: term.name,
    slug: term.slug,
    description: term.description,
    parent: term.parent,
    count,
    meta: term.meta,
  };
}

export const fromTermFields = (f: catalog.TermFields | undefined) => ({ ...f });
