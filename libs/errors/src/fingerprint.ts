import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted: the same value whatever order a client sent its keys in. */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
      : Array.isArray(v) ? v.map(canonical) : v;
  return JSON.stringify(canonical(value));
}

/** The Idempotency-Key reuse check's fingerprint of a request: sha256 of its canonical JSON. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
