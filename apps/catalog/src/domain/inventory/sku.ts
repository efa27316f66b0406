// SKUs derived from names: CAT-NAME-0001, uppercase ASCII, numbered per prefix.

/** Uppercase ASCII letters and digits of each word, accents dropped ("Crème brûlée" -> ["CREME", "BRULEE"]). */
export function asciiWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
}

/** Three letters of the category ("Clothing" -> "CLO"); "" without one. */
export function categoryCode(categoryName: string): string {
  return asciiWords(categoryName).join('').slice(0, 3);
}

/** Up to four characters of each of the first words, eight at most ("Organic Cotton T-Shirt" -> "ORGACOTT"). */
export function nameCode(name: string): string {
  return (
    asciiWords(name)
      .map((w) => w.slice(0, 4))
      .join('')
      .slice(0, 8) || 'ITEM'
  );
}

export function skuPrefix(name: string, categoryName: string): string {
  const category = categoryCode(categoryName);
  return category ? `${category}-${nameCode(name)}` : nameCode(name);
}

/** The next number of the series: one above the highest `<prefix>-<n>` in use, four digits at least. */
export function nextSku(prefix: string, existing: readonly string[]): string {
  const pattern = new RegExp(`^${prefix.replace(/[-]/g, '\\-')}-(\\d+)$`, 'i');
  const highest = existing.reduce((max, sku) => {
    const match = pattern.exec(sku);
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  return `${prefix}-${String(highest + 1).padStart(4, '0')}`;
}
