import type { LoadTarget } from './load';

export interface Scenarios {
  targets: LoadTarget[];
  /** Bytes of GET /shop/v1/me, served by the bare reference route. */
  meBody: string;
  adminId: number;
}

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** Logs in, creates the credentials and data the measured routes need, and lists the routes. */
export async function prepareScenarios(base: string, adminPassword: string, productIds: number[]): Promise<Scenarios> {
  const json = { 'content-type': 'application/json' };
  const loginBody = JSON.stringify({ username: 'admin', password: adminPassword });
  const login = await call(`${base}/shop/v1/auth/login`, { method: 'POST', headers: json, body: loginBody });
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).filter((c) => !c.endsWith('=')).join('; ');
  const session = { cookie, 'x-platform-nonce': login.headers.get('x-platform-nonce')! };
  const created = await call(`${base}/platform/v1/users/me/application-passwords`, {
    method: 'POST',
    headers: { ...session, ...json },
    body: JSON.stringify({ name: 'bench' }),
  }).then((r) => r.json() as Promise<{ password: string }>);
  const basic = { authorization: `Basic ${Buffer.from(`admin:${created.password}`).toString('base64')}` };
  const meBody = await call(`${base}/shop/v1/me`, { headers: session }).then((r) => r.text());

  return {
    meBody,
    adminId: JSON.parse(meBody).id,
    targets: [
      { name: 'GET /shop/v1/me (cookie + nonce)', url: `${base}/shop/v1/me`, headers: session },
      { name: 'GET /shop/v1/me (Basic app password)', url: `${base}/shop/v1/me`, headers: basic },
      { name: 'GET /shop/v1/settings', url: `${base}/shop/v1/settings`, headers: session },
      { name: 'GET /shop/v1/shop_product?per_page=20 (guest)', url: `${base}/shop/v1/shop_product?per_page=20` },
      { name: 'GET /shop/v1/shop_product/<id> (guest)', url: `${base}/shop/v1/shop_product/${productIds[Math.floor(productIds.length / 2)]}` },
      // Signed-in reads skip the response cache: the full path (keys, documents, mapping, serialization).
      { name: 'GET /shop/v1/shop_product?per_page=20 (admin, uncached)', url: `${base}/shop/v1/shop_product?per_page=20`, headers: session },
      { name: 'GET /shop/v1/shop_product/<id> (admin, uncached)', url: `${base}/shop/v1/shop_product/${productIds[Math.floor(productIds.length / 2)]}`, headers: session },
      // 10,000 orders of the admin: the customer's list (summaries) and the admin list (whole orders).
      { name: 'GET /shop/v1/me/orders (10,000 orders)', url: `${base}/shop/v1/me/orders`, headers: session },
      { name: 'GET /shop/v1/order?per_page=20 (10,000 orders)', url: `${base}/shop/v1/order?per_page=20`, headers: session },
      {
        name: 'POST /shop/v1/auth/login (scrypt)',
        method: 'POST',
        url: `${base}/shop/v1/auth/login`,
        headers: json,
        body: loginBody,
        connections: 8,
      },
    ],
  };
}
