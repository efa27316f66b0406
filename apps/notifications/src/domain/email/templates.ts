import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailType } from './types';

/** One template: subject line, HTML part and text part, with `{{name}}` placeholders. */
export interface Template {
  subject: string;
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Text parts and subjects: no control characters (a value cannot start a header or fake lines). */
export function escapeText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

function fill(template: string, vars: Record<string, string>, escape: (v: string, name: string) => string): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, name: string) => escape(vars[name] ?? '', name));
}

/** Blocks an admin writes (a gateway's payment instructions), never a customer's value: they keep their lines. */
const MULTI_LINE = new Set(['payment_instructions']);

/**
 * Renders a template; every value is escaped for the part it lands in, and
 * kept on one line in the subject and the text part (a name with a line break
 * cannot start a line of its own there).
 */
export function renderTemplate(template: Template, vars: Record<string, string>) {
  const oneLine = (v: string) => escapeText(v).replace(/[\r\n]+/g, ' ');
  return {
    subject: fill(template.subject.trim(), vars, oneLine),
    html: fill(template.html, vars, (v, name) => (MULTI_LINE.has(name) ? escapeHtml(v).replace(/\n/g, '<br>\n') : escapeHtml(v))),
    text: fill(template.text, vars, (v, name) => (MULTI_LINE.has(name) ? escapeText(v) : oneLine(v))),
  };
}

/**
 * Templates are plain files `<type>.subject`, `<type>.html`, `<type>.txt`:
 * a file in the shop's override folder wins over the built-in one, part by part.
 */
export class TemplateStore {
  constructor(
    private readonly defaultDir: string,
    private readonly overrideDir?: string,
  ) {}

  load(type: EmailType): Template {
    return { subject: this.part(type, 'subject'), html: this.part(type, 'html'), text: this.part(type, 'txt') };
  }

  private part(type: EmailType, ext: string): string {
    const name = `${type}.${ext}`;
    if (this.overrideDir) {
      const own = join(this.overrideDir, name);
      if (existsSync(own)) return readFileSync(own, 'utf8');
    }
    return readFileSync(join(this.defaultDir, name), 'utf8');
  }
}
