import type { MetaFieldRow } from '../persistence/entities';

export interface MetaUpdate {
  key: string;
  value: unknown;
}

/** Applies key/value updates: an existing key is overwritten, a new key added, a null value removes the key. */
export function applyMetaUpdates(current: MetaFieldRow[], updates: MetaUpdate[]): MetaFieldRow[] {
  const next = current.map((m) => ({ ...m }));
  let nextId = next.reduce((max, m) => Math.max(max, m.id), 0);
  for (const { key, value } of updates) {
    const index = next.findIndex((m) => m.key === key);
    if (value === null || value === undefined) {
      if (index >= 0) next.splice(index, 1);
    } else if (index >= 0) {
      next[index].value = value;
    } else {
      next.push({ id: ++nextId, key, value });
    }
  }
  return next;
}
