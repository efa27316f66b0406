import { createHash } from 'node:crypto';
import type { ProductKey } from '../../persistence/product-read-model';
import { can, type Actor } from '../shared/actor';

/** A read that may answer "not modified": the caller's copy for `etag` is still current. */
export interface ProductRead<T> {
  notModified: boolean;
  etag: string;
  value: T;
  total: number;
  totalPages: number;
}

/**
 * The ETag of what a caller sees for these products: their fingerprints
 * (row and stock-level versions, term links), the total, and whether the
 * caller sees hidden stock quantities (the one caller-dependent part of a
 * product document).
 */
export function productsEtag(keys: readonly ProductKey[], total: number, actor: Actor): string {
  // The same bytes as hashing the parts one by one, in one update (each update crosses into native code).
  let text = `${can(actor, 'edit_shop_products') ? 'stock-visible|' : 'stock-hidden|'}${total}`;
  for (const key of keys) text += `|${key.id}:${key.status}:${key.fingerprint}`;
  return createHash('sha1').update(text).digest('base64url');
}
