// GET /logs is public: entries never hold personal data (contract). Producers
// send ids only; this is the second line of defence for whatever slips through.

const EMAIL = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[A-Za-z]{2,}/g;
const CARD = /\b(?:\d[ -]?){12,19}\b/g;
const PERSONAL_KEY =
  /(e-?mail|name|address|phone|token|card|password|secret|key|login|postcode|zip|city|street|ip$|client_ip|cvc|iban|note|body|to$)/i;

/** Redacts e-mail addresses and card-like digit runs from free text. */
export function scrubText(value: string): string {
  return value.replace(EMAIL, '[redacted]').replace(CARD, '[redacted]').slice(0, 1000);
}

/** Keeps ids, statuses, amounts and flags; drops keys that name personal data; scrubs strings. */
export function scrubContext(value: unknown, depth = 0): unknown {
  if (depth > 4) return null;
  if (typeof value === 'string') return scrubText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => scrubContext(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (/_ids?$/.test(key) || key === 'id') {
        out[key] = scrubContext(v, depth + 1);
        continue;
      }
      if (PERSONAL_KEY.test(key)) continue;
      out[key] = scrubContext(v, depth + 1);
    }
    return out;
  }
  return null;
}

export function parseContext(json: string): Record<string, unknown> {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    const scrubbed = scrubContext(parsed);
    return scrubbed && typeof scrubbed === 'object' && !Array.isArray(scrubbed) ? (scrubbed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
