// `rendered` values of the native content-type routes. The catalog stores
// plain text (raw); the REST layer shows it as HTML that is safe to insert in
// a page, the way the host platform's esc_html + wpautop would.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** Escapes the characters that would let stored text turn into markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/**
 * Plain text as paragraphs (wpautop for text without markup): blank lines
 * separate `<p>` blocks, single line breaks become `<br />`. Empty text
 * renders as "".
 */
export function renderParagraphs(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br />\n')}</p>\n`)
    .join('');
}
