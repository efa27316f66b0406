/**
 * Postcode patterns shared by tax rates (';'-separated) and shipping zones
 * (newline-separated), matched the way WooCommerce does: case-insensitive,
 * spaces and hyphens ignored; "12*" matches every postcode starting 12;
 * "10000...19999" matches the numeric postcodes in that inclusive range.
 */
export type PostcodePattern =
  | { kind: 'exact'; text: string; normalized: string }
  | { kind: 'prefix'; text: string; normalized: string }
  | { kind: 'range'; text: string; min: bigint; max: bigint };

const LITERAL = /^[A-Z0-9][A-Z0-9 -]*$/;
const RANGE = /^(\S+)\s*\.\.\.\s*(\S+)$/;
const MAX_LENGTH = 40;

/** Uppercase without spaces or hyphens: what two postcodes are compared on. */
export function normalizePostcode(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}

/** One pattern, or the reason it is malformed. */
export function parsePostcodePattern(raw: string): PostcodePattern | { problem: string } {
  const text = raw.trim().toUpperCase().replace(/\s+/g, ' ');
  if (text.length > MAX_LENGTH) return { problem: `"${raw.trim()}" is longer than ${MAX_LENGTH} characters` };
  const range = RANGE.exec(text);
  if (range) return parseRange(text, range[1], range[2]);
  if (text.endsWith('*')) {
    const prefix = text.slice(0, -1);
    return LITERAL.test(prefix)
      ? { kind: 'prefix', text, normalized: normalizePostcode(prefix) }
      : { problem: `"${text}" is not a postcode wildcard (a postcode start followed by one *)` };
  }
  return LITERAL.test(text)
    ? { kind: 'exact', text, normalized: normalizePostcode(text) }
    : { problem: `"${text}" is not a postcode (letters, digits, spaces and hyphens)` };
}

function parseRange(text: string, low: string, high: string): PostcodePattern | { problem: string } {
  if (!/^\d+$/.test(low) || !/^\d+$/.test(high)) return { problem: `"${text}": a range needs numeric ends` };
  const min = BigInt(low);
  const max = BigInt(high);
  if (min > max) return { problem: `"${text}": the lower end is above the upper end` };
  return { kind: 'range', text: `${low}...${high}`, min, max };
}

/** Patterns of a list and the problems of its malformed entries; blank entries are skipped. */
export function parsePostcodeList(value: string, separator: RegExp): { patterns: PostcodePattern[]; problems: string[] } {
  const patterns: PostcodePattern[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of value.split(separator)) {
    if (!entry.trim()) continue;
    const parsed = parsePostcodePattern(entry);
    if ('problem' in parsed) problems.push(parsed.problem);
    else if (!seen.has(parsed.text)) {
      seen.add(parsed.text);
      patterns.push(parsed);
    }
  }
  return { patterns, problems };
}

export function postcodeMatches(pattern: PostcodePattern, postcode: string): boolean {
  const candidate = normalizePostcode(postcode);
  if (!candidate) return false;
  switch (pattern.kind) {
    case 'exact':
      return candidate === pattern.normalized;
    case 'prefix':
      return candidate.startsWith(pattern.normalized);
    case 'range':
      return /^\d+$/.test(candidate) && BigInt(candidate) >= pattern.min && BigInt(candidate) <= pattern.max;
  }
}

/** True when any pattern matches. */
export function anyPostcodeMatches(patterns: readonly PostcodePattern[], postcode: string): boolean {
  return patterns.some((pattern) => postcodeMatches(pattern, postcode));
}
