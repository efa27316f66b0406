import type { SettingsField } from '../gateways/gateway';

/** What a stored password is shown as; sending it back keeps the stored value. */
export const PASSWORD_MASK = '********';
const MAX_TEXT = 10_000;

export type FieldCheck = { ok: true; value: unknown } | { ok: false; problem: string };

const fail = (problem: string): FieldCheck => ({ ok: false, problem });

/** Removes NUL and other control characters except tab/newline (they never reach Postgres). */
function stripControls(text: string, keepNewlines: boolean): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(keepNewlines ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g : /[\u0000-\u001f\u007f]/g, keepNewlines ? '' : ' ');
}

function stripTags(text: string): string {
  return text.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, '').replace(/<[^>]*>?/g, '');
}

/** Plain text: no tags, no line breaks, whitespace collapsed (host-platform sanitize_text_field). */
export function sanitizeText(text: string): string {
  return stripTags(stripControls(text, false)).replace(/\s+/g, ' ').trim();
}

/** Text that may keep a few inline tags (strong, em, b, i, br), without attributes. */
export function sanitizeSafeText(text: string): string {
  const cleaned = stripControls(text, false).replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  return cleaned
    .replace(/<(\/?)([a-zA-Z0-9]+)[^>]*>/g, (_m, slash: string, tag: string) =>
      ['strong', 'em', 'b', 'i', 'br'].includes(tag.toLowerCase()) ? `<${slash}${tag.toLowerCase()}>` : '',
    )
    .replace(/<[^>]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Multi-line text: no tags, line breaks kept. */
export function sanitizeTextarea(text: string): string {
  return stripTags(stripControls(text, true))
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .trim();
}

/**
 * Validates and sanitizes one field by its declared type (spec 2.11):
 * password and copy_text validate as text; checkbox validates as boolean.
 */
export function checkField(field: Pick<SettingsField, 'type' | 'options'>, value: unknown): FieldCheck {
  switch (field.type) {
    case 'text':
    case 'safe_text':
    case 'textarea':
    case 'password':
    case 'copy_text': {
      if (typeof value !== 'string') return fail('must be a string.');
      if (value.length > MAX_TEXT) return fail(`must be at most ${MAX_TEXT} characters.`);
      if (field.type === 'password') return { ok: true, value: stripControls(value, false) };
      if (field.type === 'safe_text') return { ok: true, value: sanitizeSafeText(value) };
      if (field.type === 'textarea') return { ok: true, value: sanitizeTextarea(value) };
      return { ok: true, value: sanitizeText(value) };
    }
    case 'checkbox': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'yes' || value === 'true' || value === '1') return { ok: true, value: true };
      if (value === 'no' || value === 'false' || value === '0') return { ok: true, value: false };
      return fail('must be a boolean.');
    }
    case 'multiselect': {
      if (!Array.isArray(value)) return fail('must be an array of strings.');
      const allowed = Object.keys(field.options ?? {});
      const bad = value.find((v) => typeof v !== 'string' || (allowed.length > 0 && !allowed.includes(v)));
      if (bad !== undefined) return fail(`must only contain ${allowed.join(', ')}.`);
      return { ok: true, value: [...new Set(value as string[])] };
    }
    default:
      return fail('has an unknown type.');
  }
}

/** JSON Schema of one field, for the OPTIONS schema. */
export function fieldSchema(field: SettingsField): Record<string, unknown> {
  const base = { title: field.title, ...(field.description ? { description: field.description } : {}), 'x-field-type': field.type };
  switch (field.type) {
    case 'checkbox':
      return { ...base, type: 'boolean' };
    case 'multiselect':
      return { ...base, type: 'array', items: { type: 'string', enum: Object.keys(field.options ?? {}) }, uniqueItems: true };
    case 'copy_text':
      return { ...base, type: 'string', readOnly: true, maxLength: MAX_TEXT };
    case 'password':
      return { ...base, type: 'string', format: 'password', writeOnly: true, maxLength: MAX_TEXT };
    default:
      return { ...base, type: 'string', maxLength: MAX_TEXT };
  }
}
