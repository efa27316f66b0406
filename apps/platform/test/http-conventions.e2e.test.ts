import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';

// `_fields`, ETag / If-None-Match, Cache-Control + Vary, and compression of large bodies.
let stack: Platform;
let admin: ShopClient;
let guest: ShopClient;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  guest = new ShopClient(stack.url);
});
afterAll(() => stack?.stop());

describe('HTTP conventions of reads', () => {
  it('_fields keeps the named top-level and dotted fields', async () => {
    const res = await admin.get('/shop/v1/me?_fields=id,username,stats.total_orders');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), username: ADMIN.login, stats: { total_orders: 0 } });
  });

  it('cacheable reads carry an ETag; If-None-Match answers 304; signed-in reads are private', async () => {
    const first = await admin.get('/shop/v1/settings');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toMatch(/Cookie/);
    const again = await admin.get('/shop/v1/settings', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const guestList = await guest.get('/shop/v1/shop_product');
    expect(guestList.headers.get('cache-control')).toBe('public, no-cache');
    expect((await admin.get('/platform/v1/nonce')).headers.get('cache-control')).toBe('no-store');
    // A guest's cart is theirs (named by a session header a shared cache does not see unless told).
    const guestCart = await guest.get('/shop/v1/cart', { headers: { 'x-shop-session': 'not-a-session' } });
    expect(guestCart.status).toBe(200);
    expect(guestCart.headers.get('cache-control')).toMatch(/^(private, no-cache|no-store)$/);
    expect(guestCart.headers.get('cache-control')).not.toMatch(/public/);
    expect(guestCart.headers.get('vary')).toMatch(/X-Shop-Session/);
  });

  it('reads served from the response cache (stored bytes) keep _fields, If-None-Match and compression', async () => {
    const content = 'A long description. '.repeat(150);
    for (const title of ['Cached one', 'Cached two']) {
      expect((await admin.post('/shop/v1/shop_product', { title, status: 'publish', content })).status).toBe(201);
    }
    const first = await guest.get('/shop/v1/shop_product');
    const cached = await guest.get('/shop/v1/shop_product');
    expect(cached.body).toEqual(first.body);
    const etag = cached.headers.get('etag')!;
    expect(etag).toBe(first.headers.get('etag'));
    const picked = await guest.get('/shop/v1/shop_product?_fields=id,title.rendered');
    expect(picked.body).toEqual(first.body.map((p: { id: number; title: { rendered: string } }) => ({ id: p.id, title: { rendered: p.title.rendered } })));
    expect((await guest.get('/shop/v1/shop_product', { headers: { 'if-none-match': `W/"x", W/${etag}` } })).status).toBe(304);
    expect((await guest.get('/shop/v1/shop_product', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    const gzipped = await fetch(`${stack.url}/shop/v1/shop_product`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.json()).toEqual(first.body);
  });

  it('compresses large bodies for clients that accept it', async () => {
    const res = await fetch(`${stack.url}/shop/v1/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
