/** Escapes LIKE/ILIKE wildcards (`%`, `_`) and the escape character itself, for a literal match. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
