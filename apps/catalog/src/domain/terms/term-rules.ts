import { DomainError, invalidParams, missingParams, notFound } from '@storefront/errors';
import { canAny, denied, type Actor } from '../shared/actor';
import type { Context } from '../posts/collection-query';
import { limitText } from '../products/product-input';
import { TAXONOMIES, type Taxonomy } from '../../persistence/terms.repository';

export { TAXONOMIES, type Taxonomy };

const WRITE_CAPS = ['manage_shop_product_terms', 'edit_shop_product_terms'];
const DELETE_CAPS = ['manage_shop_product_terms', 'delete_shop_product_terms'];

export function parseTaxonomy(value: string): Taxonomy {
  if (!(TAXONOMIES as readonly string[]).includes(value)) {
    throw invalidParams({ taxonomy: `taxonomy must be one of ${TAXONOMIES.join(', ')}.` });
  }
  return value as Taxonomy;
}

export const isHierarchical = (taxonomy: Taxonomy) => taxonomy === 'shop_product_category';

export const termNotFound = () => notFound('rest_term_invalid', 'Term does not exist.');

/** Terms are public to read; `context=edit` is for those who may edit them. */
export function assertCanReadTerms(actor: Actor, context: Context): void {
  if (context === 'edit' && !canAny(actor, WRITE_CAPS)) {
    throw denied(actor, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
  }
}

export function assertCanWriteTerms(actor: Actor, code: 'rest_cannot_create' | 'rest_cannot_update'): void {
  if (!canAny(actor, WRITE_CAPS)) {
    const verb = code === 'rest_cannot_create' ? 'create' : 'edit';
    throw denied(actor, code, `Sorry, you are not allowed to ${verb} terms in this taxonomy.`);
  }
}

export function assertCanDeleteTerms(actor: Actor): void {
  if (!canAny(actor, DELETE_CAPS)) {
    throw denied(actor, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
  }
}

/** Terms have no trash (host-platform convention): DELETE needs force. */
export function trashNotSupported(): DomainError {
  return new DomainError(
    'rest_trash_not_supported',
    501,
    "Terms do not support trashing. Set 'force' to true to delete.",
  );
}

export function requireTermName(name: string | undefined, creating: boolean): string | undefined {
  if (name === undefined) {
    if (creating) throw missingParams(['name']);
    return undefined;
  }
  const trimmed = limitText('name', name.trim(), 200);
  if (!trimmed) throw invalidParams({ name: 'A name is required for this term.' });
  return trimmed;
}
