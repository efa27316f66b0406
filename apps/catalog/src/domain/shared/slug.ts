/**
 * The host platform's sanitize_title, reduced to what slugs need: ASCII
 * (accents dropped), lowercase, runs of anything else become one hyphen.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190);
}

/** `base`, or `base-2`, `base-3`, ... : the first one not in `taken` (wp_unique_post_slug). */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
