import { invalidParams } from '@storefront/errors';
import type { JsonObject } from '../../persistence/entities';

const MAX_META_BYTES = 64 * 1024;
const MAX_KEY_LENGTH = 255;

/** Custom fields after a write: keys in the patch are set, a null value removes the key. */
export function mergeMeta(current: JsonObject, patch: JsonObject | undefined): JsonObject {
  if (!patch) return current;
  const next: JsonObject = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (!key.trim() || key.length > MAX_KEY_LENGTH) {
      throw invalidParams({ meta: `meta keys must have 1 to ${MAX_KEY_LENGTH} characters.` });
    }
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  if (JSON.stringify(next).length > MAX_META_BYTES) {
    throw invalidParams({ meta: `meta is limited to ${MAX_META_BYTES} bytes.` });
  }
  return next;
}
