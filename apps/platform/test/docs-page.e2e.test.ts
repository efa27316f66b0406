import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';

// The /docs page in a real headless Chromium (Debian's `chromium`; CI installs
// it, CHROMIUM_PATH overrides the location): every tag renders, "Try it out"
// runs a list operation with its defaults, and "Authorize" with an
// application password sends HTTP Basic.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let stack: Platform;
let browser: Browser;
let page: Page;
let appPassword: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  stack = await startStack();
  const admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  const created = await admin.post('/platform/v1/users/me/application-passwords', { name: 'docs page test' });
  expect(created.status).toBe(201);
  appPassword = created.body.password;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  // Swagger UI renders only what is in the viewport (virtual lists): a tall one shows every tag at once.
  page = await browser.newPage({ viewport: { width: 1280, height: 30_000 } });
  page.setDefaultTimeout(60_000);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function execute(operationId: string, tag: string) {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  const response = page.waitForResponse((r) => r.request().resourceType() === 'fetch' && !r.url().includes('/docs/'));
  await block.locator('button.execute').click();
  return response;
}

describe('/docs in a browser', () => {
  it('renders every tag of the document', async () => {
    await page.goto(`${stack.url}/docs/`);
    await page.locator('.opblock-tag').first().waitFor();
    const document = (await (await fetch(`${stack.url}/shop/v1/openapi.json`)).json()) as { tags: Array<{ name: string }> };
    const rendered = await page.locator('.opblock-tag').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    expect(rendered.sort()).toEqual(document.tags.map((t) => t.name).sort());
  });

  it('Try it out runs GET /shop_product with its defaults: 200', async () => {
    const response = await execute('listProducts', 'catalog');
    expect(response.request().url()).toContain('/shop/v1/shop_product');
    expect(response.status()).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });

  it('Authorize with an application password sends Basic: GET /me returns the admin', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    const modal = page.locator('.dialog-ux .modal-ux');
    const basic = modal.locator('.auth-container').filter({ hasText: 'applicationPassword' });
    await basic.locator('input').nth(0).fill(ADMIN.login);
    await basic.locator('input[type=password]').fill(appPassword);
    await basic.locator('button.authorize').click();
    await modal.locator('button.btn-done').first().click();
    const response = await execute('getProfile', 'customers');
    expect(response.request().headers().authorization).toMatch(/^Basic /);
    expect(response.status()).toBe(200);
    expect((await response.json()).username).toBe(ADMIN.login);
  });
});
