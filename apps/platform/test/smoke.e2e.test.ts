import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';
import type { Platform } from '../src';

let stack: Platform;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

it('boots and serves the admin profile', async () => {
  const client = new ShopClient(stack.url);
  await client.login(ADMIN.login, ADMIN.password);
  const me = await client.get('/shop/v1/me');
  expect(me.status).toBe(200);
  expect(me.body.username).toBe('admin');
});
