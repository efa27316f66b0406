import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { renderTemplate, TemplateStore } from '../src/domain/email/templates';
import { EMAIL_TYPES, type EmailType } from '../src/domain/email/types';
import { parseContext, scrubText } from '../src/domain/activity/pii';

const builtIn = fileURLToPath(new URL('../templates/', import.meta.url));
const overrides = mkdtempSync(join(tmpdir(), 'shop-templates-'));
afterAll(() => rmSync(overrides, { recursive: true, force: true }));

describe('templates', () => {
  it('has the three parts of every email type', () => {
    const store = new TemplateStore(builtIn);
    for (const type of Object.keys(EMAIL_TYPES) as EmailType[]) {
      const t = store.load(type);
      expect(t.subject.trim()).not.toBe('');
      expect(t.html).toContain('<html>');
      expect(t.text.trim()).not.toBe('');
    }
  });

  it('escapes every value for its part', () => {
    const out = renderTemplate(
      { subject: 'Hi {{first_name}}', html: '<p>{{first_name}}</p><a href="{{url}}">x</a>', text: 'Hi {{first_name}} {{url}}' },
      { first_name: '<script>alert("x")</script>\r\nBcc: evil@example.com', url: 'https://shop.test/?a=1&b="2"' },
    );
    expect(out.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(out.html).toContain('href="https://shop.test/?a=1&amp;b=&quot;2&quot;"');
    expect(out.html).not.toContain('<script>');
    expect(out.subject).not.toMatch(/[\r\n]/);
    expect(out.text).not.toMatch(/[\r\n]/);
    expect(out.text).toContain('</script> Bcc: evil@example.com');
    expect(out.text).toContain('https://shop.test/?a=1&b="2"');
    expect(renderTemplate({ subject: '{{missing}}x', html: '', text: '' }, {}).subject).toBe('x');
  });

  it('takes a shop override part by part', () => {
    writeFileSync(join(overrides, 'welcome.subject'), 'Hello from {{store_name}}!\n');
    const t = new TemplateStore(builtIn, overrides).load('welcome');
    expect(t.subject.trim()).toBe('Hello from {{store_name}}!');
    expect(t.html).toBe(new TemplateStore(builtIn).load('welcome').html);
  });
});

describe('PII scrubbing of activity entries', () => {
  it('drops personal keys, keeps ids and redacts addresses and card numbers in text', () => {
    expect(
      parseContext(
        JSON.stringify({
          order_id: 4,
          customer_id: 9,
          email: 'a@b.com',
          billing_address: 'x',
          first_name: 'A',
          note: 'call me at a@b.com',
          token: 't',
          from: 'pending',
          items: [{ product_id: 1, name: 'Mug' }],
        }),
      ),
    ).toEqual({ order_id: 4, customer_id: 9, from: 'pending', items: [{ product_id: 1 }] });
    expect(scrubText('Mail to jo.doe+x@mail.example.org failed; card 4242 4242 4242 4242')).toBe(
      'Mail to [redacted] failed; card [redacted]',
    );
    expect(parseContext('not json')).toEqual({});
    expect(parseContext('[1,2]')).toEqual({});
  });
});
