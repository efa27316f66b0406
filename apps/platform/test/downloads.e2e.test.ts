import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OrderEvents } from '@storefront/domain-events/orders';
import type { EventTransport } from '@storefront/events';
import { catalog } from '@storefront/proto/catalog';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';
import { connectStackEvents, publishEvent } from './support/events';


const SECRET = 'e2e-download-signing-secret';
const W = 20_000;
let stack: Platform;
let events: EventTransport;
let admin: ShopClient;
let seed: CatalogAdmin;
let filesDir: string;
const fileBytes = randomBytes(3 * 1024 * 1024 + 123);

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'shop-files-'));
  mkdirSync(join(filesDir, 'guides'));
  writeFileSync(join(filesDir, 'guides', 'guide.bin'), fileBytes);
  writeFileSync(join(filesDir, 'extra.txt'), 'extra file');
  writeFileSync(join(filesDir, '..', `outside-${process.pid}.txt`), 'secret');
  symlinkSync(join(filesDir, '..', `outside-${process.pid}.txt`), join(filesDir, 'link.txt'));
  stack = await startStack({ FILES_DIR: filesDir, DOWNLOAD_SIGNING_SECRET: SECRET });
  events = await connectStackEvents(stack, 'downloads-test');
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  seed = await connectCatalogAdmin(stack, admin);
});
afterAll(async () => {
  seed?.close();
  await events?.close();
  await stack?.stop();
  rmSync(filesDir, { recursive: true, force: true });
  rmSync(join(filesDir, '..', `outside-${process.pid}.txt`), { force: true });
});

const guest = () => new ShopClient(stack.url);
let orderSeq = 5000;

async function customer(email: string): Promise<{ client: ShopClient; id: number }> {
  const c = guest();
  const res = await c.post('/shop/v1/auth/register', { email, password: 'password-1' });
  expect(res.status).toBe(200);
  return { client: c, id: res.body.user.id };
}

function downloadable(title: string, files: { name: string; file: string }[], extra: Partial<catalog.ProductFields> = {}) {
  return seed.simpleProduct({ title, downloadable: true, downloads: { items: files.map((f) => ({ id: '', ...f })) }, ...extra });
}

async function payOrder(customerId: number, productIds: number[], paidAt = new Date(), orderId = ++orderSeq): Promise<number> {
  await publishEvent(events, OrderEvents.orderPaid, {
    orderId,
    customerId,
    currency: 'USD',
    total: '10.00',
    subtotal: '10.00',
    discountTotal: '0',
    shippingTotal: '0',
    totalTax: '0',
    lines: productIds.map((productId, i) => ({
      productId, variationId: 0, quantity: 1, priceId: 0, lineId: i + 1, downloadable: true, name: 'P', total: '10.00', tax: '0',
    })),
    couponCodes: [],
    reservationId: '',
    paymentMethod: 'cod',
    transactionId: '',
    status: 'completed',
    billingEmail: 'x@example.com',
    billingFirstName: 'X',
    orderKey: 'k',
    paidAt,
  });
  return orderId;
}

async function myDownloads(c: ShopClient, min = 1): Promise<any[]> {
  return (await waitFor(async () => {
    const res = await c.get('/shop/v1/me/downloads');
    return res.status === 200 && res.body.length >= min && res.body;
  }, W)) as any[];
}

function fetchPartly(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, (res) => {
      res.once('data', (chunk: Buffer) => {
        req.destroy();
        resolve(chunk.length);
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

describe('download permissions from a paid order', () => {
  let buyer: { client: ShopClient; id: number };
  let permission: any;

  it('grants one permission per file of the paid downloadable products (idempotent per order)', async () => {
    buyer = await customer('buyer@example.com');
    const product = await downloadable('E-book', [{ name: 'Guide', file: 'guides/guide.bin' }]);
    const plain = await seed.simpleProduct({ title: 'Mug' });
    const unpaid = ++orderSeq;
    // Placed but not paid (bacs, on hold): nothing is granted.
    await publishEvent(events, OrderEvents.orderPlaced, {
      orderId: unpaid, customerId: buyer.id, status: 'on_hold', currency: 'USD', total: '10.00',
      lines: [{ productId: Number(product.id), variationId: 0, quantity: 1, priceId: 0, lineId: 1, downloadable: true, name: 'E-book', total: '10.00', tax: '0' }],
      couponCodes: [], reservationId: '', paymentMethod: 'bacs', billingEmail: 'b@example.com', billingFirstName: 'B', orderKey: 'k', createdAt: new Date(), createdVia: 'checkout',
    });
    const orderId = await payOrder(buyer.id, [Number(product.id), Number(plain.id)]);
    // The same order paid twice (redelivery or a repeated event): still one permission.
    await publishEvent(events, OrderEvents.orderPaid, {
      orderId, customerId: buyer.id, currency: 'USD', total: '10.00', subtotal: '10.00', discountTotal: '0', shippingTotal: '0',
      totalTax: '0', lines: [{ productId: Number(product.id), variationId: 0, quantity: 1, priceId: 0, lineId: 1, downloadable: true, name: 'P', total: '10.00', tax: '0' }],
      couponCodes: [], reservationId: '', paymentMethod: 'cod', transactionId: '', status: 'completed', billingEmail: '', billingFirstName: '', orderKey: 'k', paidAt: new Date(),
    });
    const list = await myDownloads(buyer.client);
    expect(list).toHaveLength(1);
    expect(list.some((d) => d.order_id === unpaid)).toBe(false);
    permission = list[0];
    expect(permission).toEqual({
      permission_id: expect.any(Number),
      download_id: expect.any(String),
      product_id: Number(product.id),
      product_name: 'E-book',
      download_name: 'Guide',
      file_name: 'guide.bin',
      order_id: orderId,
      downloads_remaining: -1,
      download_count: 0,
      access_granted: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      access_expires: null,
      is_expired: false,
      _links: {
        self: [{ href: `${stack.url}/shop/v1/me/downloads/${permission.permission_id}` }],
        collection: [{ href: `${stack.url}/shop/v1/me/downloads` }],
      },
    });
    // Its self link answers it.
    expect((await buyer.client.get(`/shop/v1/me/downloads/${permission.permission_id}`)).body).toEqual(permission);
    const res = await buyer.client.get('/shop/v1/me/downloads');
    expect(res.headers.get('x-platform-total')).toBe('1');
    expect(res.headers.get('x-platform-totalpages')).toBe('1');
  });

  it('signs a URL from the site URL; the file streams byte for byte and counts once', async () => {
    const sign = await buyer.client.post(`/shop/v1/me/downloads/${permission.permission_id}/sign`, {});
    expect(sign.status).toBe(200);
    expect(sign.body).toEqual({ url: expect.any(String), expires_in: 300, expires_at: expect.any(String), file_name: 'guide.bin' });
    const signed = new URL(sign.body.url);
    expect(signed.origin).toBe('http://127.0.0.1:8080');
    const local = new URL(signed.pathname + signed.search, stack.url).toString();

    // An interrupted stream is not a download, nor is a HEAD request.
    expect(await fetchPartly(local)).toBeGreaterThan(0);
    const head = await fetch(local, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(fileBytes.length));

    const res = await fetch(local);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('guide.bin');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(fileBytes)).toBe(true);
    const [after] = (await waitFor(async () => {
      const list = await myDownloads(buyer.client);
      return list[0].download_count >= 1 && list;
    }, W)) as any[];
    expect(after.download_count).toBe(1);
    // The customer's total_downloads follows (customers consumes fulfillment.download_completed).
    await waitFor(async () => (await buyer.client.get('/shop/v1/me')).body.stats?.total_downloads === 1, W);
  });

  it('refuses tampered and expired signatures', async () => {
    const id = permission.permission_id;
    const sign = await buyer.client.post(`/shop/v1/me/downloads/${id}/sign`, { expires_in: 60 });
    const url = new URL(sign.body.url);
    const sig = url.searchParams.get('signature')!;
    const exp = Number(url.searchParams.get('expires'));
    const at = (p: string) => fetch(new URL(p, stack.url)).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));
    const tampered = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    expectError(await at(`/shop/v1/downloads/${id}?expires=${exp}&signature=${tampered}`), 403, 'shop_download_invalid_signature');
    expectError(await at(`/shop/v1/downloads/${id}?expires=${exp + 1}&signature=${sig}`), 403, 'shop_download_invalid_signature');
    const past = Math.floor(Date.now() / 1000) - 10;
    const pastSig = createHmac('sha256', SECRET).update(`download:${id}:${past}`).digest('base64url');
    expectError(await at(`/shop/v1/downloads/${id}?expires=${past}&signature=${pastSig}`), 403, 'shop_download_link_expired');
    expectError(await at(`/shop/v1/downloads/${id}?expires=abc&signature=${sig}`), 400, 'rest_invalid_param');
    expectError(await at(`/shop/v1/downloads/${id}`), 400, 'rest_missing_callback_param');
  });

  it('clamps expires_in into 30..3600 and rejects non-integers', async () => {
    const id = permission.permission_id;
    const sign = (body: unknown) => buyer.client.post(`/shop/v1/me/downloads/${id}/sign`, body);
    expect((await sign({ expires_in: -1 })).body.expires_in).toBe(30);
    expect((await sign({ expires_in: 1_000_000_000 })).body.expires_in).toBe(3600);
    expect((await sign({ expires_in: 10_000_000_000_000 })).body.expires_in).toBe(3600);
    expect((await sign({ expires_in: -3_000_000_000 })).body.expires_in).toBe(30);
    expect((await sign({ expires_in: 900 })).body.expires_in).toBe(900);
    expectError(await sign({ expires_in: 'soon' }), 400, 'rest_invalid_param');
    expectError(await sign({ expires_in: 1.5 }), 400, 'rest_invalid_param');
    expectError(await buyer.client.post(`/shop/v1/me/downloads/${id}/sign?expires_in=abc`), 400, 'rest_invalid_param');
  });

  it("404s others' and unknown permissions; 401 for guests", async () => {
    const other = await customer('other@example.com');
    expectError(await other.client.post(`/shop/v1/me/downloads/${permission.permission_id}/sign`, {}), 404);
    expectError(await buyer.client.post('/shop/v1/me/downloads/999999/sign', {}), 404);
    expectError(await other.client.get(`/shop/v1/me/downloads/${permission.permission_id}`), 404, 'shop_rest_download_invalid');
    expectError(await guest().get(`/shop/v1/me/downloads/${permission.permission_id}`), 401, 'shop_rest_not_logged_in');
    expectError(await buyer.client.get('/shop/v1/me/downloads/abc'), 400, 'rest_invalid_param');
    expectError(await buyer.client.post('/shop/v1/me/downloads/abc/sign', {}), 400, 'rest_invalid_param');
    expect((await other.client.get('/shop/v1/me/downloads')).body).toEqual([]);
    expectError(await guest().get('/shop/v1/me/downloads'), 401, 'shop_rest_not_logged_in');
    expectError(await guest().post(`/shop/v1/me/downloads/${permission.permission_id}/sign`, {}), 401, 'shop_rest_not_logged_in');
    expectError(await buyer.client.get('/shop/v1/me/downloads?per_page=101'), 400, 'rest_invalid_param');
  });

  it('a file path climbing out of FILES_DIR is refused with 4xx', async () => {
    // The catalog refuses a climbing path outright...
    const climbing = await admin.post('/shop/v1/shop_product', {
      title: 'Climbing', status: 'publish', downloadable: true, downloads: [{ name: 'Secret', file: '../../etc/passwd' }],
    });
    expect(climbing.status).toBeGreaterThanOrEqual(400);
    expect(climbing.status).toBeLessThan(500);
    // ...and a link inside FILES_DIR that leads out of it is refused when streaming.
    const sneaky = await downloadable('Sneaky', [{ name: 'Secret', file: 'link.txt' }]);
    await payOrder(buyer.id, [Number(sneaky.id)]);
    const list = await myDownloads(buyer.client, 2);
    const p = list.find((d) => d.product_id === Number(sneaky.id));
    const sign = await buyer.client.post(`/shop/v1/me/downloads/${p.permission_id}/sign`, {});
    const url = new URL(sign.body.url);
    const res = await fetch(new URL(url.pathname + url.search, stack.url));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(((await res.json()) as { code: string }).code).toBe('shop_download_invalid_path');
  });

  it('exhausted (download_limit) and expired permissions answer 410', async () => {
    const limited = await downloadable('Limited', [{ name: 'Extra', file: 'extra.txt' }], { downloadLimit: 1 });
    const c = await customer('limited@example.com');
    await payOrder(c.id, [Number(limited.id)]);
    const [p] = await myDownloads(c.client);
    expect(p.downloads_remaining).toBe(1);
    const sign = await c.client.post(`/shop/v1/me/downloads/${p.permission_id}/sign`, {});
    const url = new URL(sign.body.url);
    expect(await (await fetch(new URL(url.pathname + url.search, stack.url))).text()).toBe('extra file');
    await waitFor(async () => (await myDownloads(c.client))[0].downloads_remaining === 0, W);
    expect((await c.client.post(`/shop/v1/me/downloads/${p.permission_id}/sign`, {})).status).toBe(410);
    // A link signed before the last download ran out is refused too.
    expect((await fetch(new URL(url.pathname + url.search, stack.url))).status).toBe(410);

    const expiring = await downloadable('Expiring', [{ name: 'Extra', file: 'extra.txt' }], { downloadExpiry: 1 });
    await payOrder(c.id, [Number(expiring.id)], new Date(Date.now() - 2 * 86_400_000));
    const old = (await myDownloads(c.client, 2)).find((d) => d.product_id === Number(expiring.id));
    expect(old).toMatchObject({ is_expired: true, access_expires: expect.any(String) });
    expect((await c.client.post(`/shop/v1/me/downloads/${old.permission_id}/sign`, {})).status).toBe(410);
  });

  it('concurrent streams never exceed download_limit; a stream the client abandons frees its download', async () => {
    const pair = await downloadable('Limited pair', [{ name: 'Guide', file: 'guides/guide.bin' }], { downloadLimit: 2 });
    const c = await customer('pair@example.com');
    await payOrder(c.id, [Number(pair.id)]);
    const [p] = await myDownloads(c.client);
    const signed = new URL((await c.client.post(`/shop/v1/me/downloads/${p.permission_id}/sign`, {})).body.url);
    const local = new URL(signed.pathname + signed.search, stack.url).toString();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await fetch(local);
        if (res.status === 200) expect(Buffer.from(await res.arrayBuffer()).equals(fileBytes)).toBe(true);
        else expectError({ status: res.status, headers: res.headers, body: await res.json() }, 410, 'shop_rest_download_gone');
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    const [done] = (await waitFor(async () => {
      const list = await myDownloads(c.client);
      return list[0].download_count === 2 && list;
    }, W)) as any[];
    expect(done.downloads_remaining).toBe(0);

    const single = await downloadable('Limited single', [{ name: 'Guide', file: 'guides/guide.bin' }], { downloadLimit: 1 });
    await payOrder(c.id, [Number(single.id)]);
    const q = (await myDownloads(c.client, 2)).find((d) => d.product_id === Number(single.id));
    const url = new URL((await c.client.post(`/shop/v1/me/downloads/${q.permission_id}/sign`, {})).body.url);
    const again = new URL(url.pathname + url.search, stack.url).toString();
    expect(await fetchPartly(again)).toBeGreaterThan(0);
    // Once the gateway saw the client go, the held download is free: the whole file streams.
    await waitFor(async () => {
      const res = await fetch(again);
      if (res.status !== 200) return res.body?.cancel().then(() => false);
      return Buffer.from(await res.arrayBuffer()).equals(fileBytes);
    }, W);
    await waitFor(async () => (await myDownloads(c.client, 2)).find((d) => d.product_id === Number(single.id)).downloads_remaining === 0, W);
  });
});

describe('POST /bundle/<id>/sync-purchasers', () => {
  it('grants newly added bundle products to past paid purchasers, a page at a time', async () => {
    const a = await downloadable('Track A', [{ name: 'A', file: 'extra.txt' }]);
    const b = await downloadable('Track B', [{ name: 'B', file: 'extra.txt' }]);
    const bundle = await seed.simpleProduct({ title: 'Album', productType: 'bundle', bundleProductIds: { ids: [a.id] } });
    const one = await customer('bundle1@example.com');
    const two = await customer('bundle2@example.com');
    const o1 = await payOrder(one.id, [Number(bundle.id)]);
    const o2 = await payOrder(two.id, [Number(bundle.id)]);
    expect((await myDownloads(one.client)).map((d) => d.product_id)).toEqual([Number(a.id)]);
    await myDownloads(two.client);

    await seed.products.updateProduct({ id: bundle.id, fields: catalog.ProductFields.fromPartial({ bundleProductIds: { ids: [a.id, b.id] } }) }, seed.caller);
    const path = `/shop/v1/bundle/${bundle.id}/sync-purchasers`;
    const first = await admin.post(path, { per_page: 1 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ total: 2, page: 1, per_page: 1, processed: 1, granted_downloads: 1, synced_orders: [o1], done: false, next_page: 2 });
    const second = await admin.post(`${path}?page=2&per_page=1`);
    expect(second.body).toEqual({ total: 2, page: 2, per_page: 1, processed: 1, granted_downloads: 1, synced_orders: [o2], done: true, next_page: null });
    expect((await myDownloads(one.client, 2)).map((d) => d.product_id).sort()).toEqual([Number(a.id), Number(b.id)].sort());
    // Again: nothing new to grant; defaults page 1, per_page 25.
    expect((await admin.post(path)).body).toMatchObject({ total: 2, page: 1, per_page: 25, processed: 2, granted_downloads: 0, done: true, next_page: null });

    expectError(await admin.post(path, { per_page: 101 }), 400, 'rest_invalid_param');
    expectError(await admin.post(`${path}?per_page=101`), 400, 'rest_invalid_param');
    expectError(await admin.post(path, { page: 0 }), 400, 'rest_invalid_param');
    expectError(await admin.post('/shop/v1/bundle/987654/sync-purchasers'), 404);
    expectError(await guest().post(path), 401, 'shop_rest_forbidden_context');
    expectError(await one.client.post(path), 403, 'shop_rest_forbidden_context');
  });

  it("records a guest's paid order (no permissions) for bundle sync, once however often order_paid comes", async () => {
    const a = await downloadable('Guest track', [{ name: 'A', file: 'extra.txt' }]);
    const bundle = await seed.simpleProduct({ title: 'Guest album', productType: 'bundle', bundleProductIds: { ids: [a.id] } });
    const path = `/shop/v1/bundle/${bundle.id}/sync-purchasers`;
    const paid = await payOrder(0, [Number(bundle.id)]);
    // Paid once more under another event id (an admin marking it paid again): still one order.
    orderSeq--;
    expect(await payOrder(0, [Number(bundle.id)])).toBe(paid);
    const synced = await waitFor(async () => {
      const res = await admin.post(path);
      return res.body.total === 1 ? res.body : undefined;
    }, W);
    expect(synced).toMatchObject({ total: 1, processed: 1, granted_downloads: 0, synced_orders: [paid], done: true });
  });

  it('walks past orders that no longer count as paid (refunded in full, cancelled after payment, deleted)', async () => {
    const a = await downloadable('Gone track', [{ name: 'A', file: 'extra.txt' }]);
    const bundle = await seed.simpleProduct({ title: 'Gone album', productType: 'bundle', bundleProductIds: { ids: [a.id] } });
    const path = `/shop/v1/bundle/${bundle.id}/sync-purchasers`;
    const [kept, refunded, cancelled, deleted] = [
      await payOrder(0, [Number(bundle.id)]),
      await payOrder(0, [Number(bundle.id)]),
      await payOrder(0, [Number(bundle.id)]),
      await payOrder(0, [Number(bundle.id)]),
    ];
    await waitFor(async () => (await admin.post(path)).body.total === 4, W);
    const who = { customerId: 0, billingEmail: '', billingFirstName: '', orderKey: 'k' };
    await publishEvent(events, OrderEvents.orderRefunded, { ...who, orderId: refunded, amount: '10.00', currency: 'USD', full: true, reason: '' });
    await publishEvent(events, OrderEvents.orderCancelled, {
      ...who, orderId: cancelled, reservationId: '', lines: [], couponCodes: [], wasPaid: true, total: '10.00', currency: 'USD', previousStatus: 'processing',
    });
    await publishEvent(events, OrderEvents.orderDeleted, {
      orderId: deleted, customerId: 0, status: 'completed', paidStatus: 'paid', reservationId: '', lines: [], counted: true, countedAmount: '10.00',
    });
    const synced = await waitFor(async () => {
      const res = await admin.post(path);
      return res.body.total === 1 ? res.body : undefined;
    }, W);
    expect(synced).toMatchObject({ total: 1, synced_orders: [kept] });
  });

  it('revokes the downloads of an order refunded in full, cancelled after payment or deleted; a partial refund keeps them', async () => {
    const product = await downloadable('Revocable', [{ name: 'R', file: 'extra.txt' }]);
    const reader = await customer('reader@example.com');
    const [refunded, partly, cancelled, deleted] = [
      await payOrder(reader.id, [Number(product.id)]),
      await payOrder(reader.id, [Number(product.id)]),
      await payOrder(reader.id, [Number(product.id)]),
      await payOrder(reader.id, [Number(product.id)]),
    ];
    const orderIds = async () => ((await reader.client.get('/shop/v1/me/downloads')).body as { order_id: number }[]).map((p) => p.order_id).sort((a, b) => a - b);
    await waitFor(async () => (await orderIds()).length === 4, W);
    const permissionOf = async (orderId: number) =>
      ((await reader.client.get('/shop/v1/me/downloads')).body as { order_id: number; permission_id: number }[]).find((p) => p.order_id === orderId)!.permission_id;
    const revokedPermission = await permissionOf(refunded);
    const link = (await reader.client.post(`/shop/v1/me/downloads/${revokedPermission}/sign`, {})).body.url as string;
    const who = { customerId: reader.id, billingEmail: '', billingFirstName: '', orderKey: 'k' };
    await publishEvent(events, OrderEvents.orderRefunded, { ...who, orderId: refunded, amount: '10.00', currency: 'USD', full: true, reason: '' });
    await publishEvent(events, OrderEvents.orderRefunded, { ...who, orderId: partly, amount: '2.00', currency: 'USD', full: false, reason: '' });
    await publishEvent(events, OrderEvents.orderCancelled, {
      ...who, orderId: cancelled, reservationId: '', lines: [], couponCodes: [], wasPaid: true, total: '10.00', currency: 'USD', previousStatus: 'processing',
    });
    await publishEvent(events, OrderEvents.orderDeleted, {
      orderId: deleted, customerId: reader.id, status: 'completed', paidStatus: 'paid', reservationId: '', lines: [], counted: true, countedAmount: '10.00',
    });
    await waitFor(async () => (await orderIds()).join() === String(partly), W);
    expectError(await reader.client.post(`/shop/v1/me/downloads/${revokedPermission}/sign`, {}), 404);
    // A link signed before the refund no longer opens.
    const signed = new URL(link);
    const opened = await fetch(new URL(signed.pathname + signed.search, stack.url));
    expect(opened.status).toBe(404);
    await opened.body?.cancel();
    // An order_paid of the refunded order handled only now (a lagging consumer) grants nothing again.
    const late = await payOrder(reader.id, [Number(product.id)], new Date(), refunded);
    const marker = await payOrder(reader.id, [Number(product.id)]);
    await waitFor(async () => (await orderIds()).includes(marker), W);
    expect(await orderIds()).toEqual([partly, marker]);
    expect(late).toBe(refunded);
  });
});
