import type { LoadTarget } from './load';

export interface Scenarios {
  targets: LoadTarget[];
  /** Bytes of GET /shop/v1/me, served by the bare reference route. */
  meBody: string;
  adminId: number;
}

/** A setup call; a 503 (a service's first database connection timing out on a busy machine) is retried. */
async function call(url: string, init: RequestInit = {}, attempts = 5) {
  const res = await fetch(url, init);
  if (res.status === 503 && attempts > 1) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return call(url, init, attempts - 1);
  }
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** Logs in, creates the credentials and data the measured routes need, and lists the routes. */
export async function prepareScenarios(base: string, adminPassword: string, productIds: number[], placeCarts = 1500): Promise<Scenarios> {
  const json = { 'content-type': 'application/json' };
  const loginBody = JSON.stringify({ username: 'admin', password: adminPassword });
  // On a busy machine the first scrypt logins can outlast the gateway's deadline (503): `call` retries.
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

  const cart = await prepareCart(base, productIds, placeCarts);
  const productPages = Array.from({ length: 10 }, (_, i) => `/shop/v1/shop_product?per_page=20&page=${i + 1}`);
  const allProductPaths = productIds.map((id) => `/shop/v1/shop_product/${id}`);
  const productPaths = allProductPaths.slice(0, 200);

  return {
    meBody,
    adminId: JSON.parse(meBody).id,
    targets: [
      { name: 'GET /shop/v1/me (cookie + nonce)', url: `${base}/shop/v1/me`, headers: session },
      { name: 'GET /shop/v1/me (Basic app password)', url: `${base}/shop/v1/me`, headers: basic },
      { name: 'GET /shop/v1/settings', url: `${base}/shop/v1/settings`, headers: session },
      // Product reads rotate over 200 products (10 pages of 20; 200 single ids), never one hot record.
      { name: 'GET /shop/v1/shop_product?per_page=20 (guest, 10 pages)', url: base, paths: productPages },
      { name: 'GET /shop/v1/shop_product/<id> (guest, 200 ids)', url: base, paths: productPaths },
      // Signed-in reads take the validated cache (catalog checks the page's fingerprint on every request), not the guest response cache.
      { name: 'GET /shop/v1/shop_product?per_page=20 (signed-in, 10 pages)', url: base, paths: productPages, headers: session },
      { name: 'GET /shop/v1/shop_product/<id> (signed-in, 200 ids)', url: base, paths: productPaths, headers: session },
      // Every product in turn, more than the response cache holds (RESPONSE_CACHE_ENTRIES, 500): the uncached path.
      { name: 'GET /shop/v1/shop_product/<id> (signed-in, all ids, cache misses)', url: base, paths: allProductPaths, headers: session },
      // 10,000 orders of the admin: the customer's list (summaries) and the admin list (whole orders).
      { name: 'GET /shop/v1/me/orders (10,000 orders)', url: `${base}/shop/v1/me/orders`, headers: session },
      { name: 'GET /shop/v1/order?per_page=20 (10,000 orders)', url: `${base}/shop/v1/order?per_page=20`, headers: session },
      { name: 'GET /shop/v1/cart (guest, 3 lines)', url: `${base}/shop/v1/cart`, headers: cart.session },
      // A new visitor per request: a guest cart row, one catalog lookup and one quote.
      { name: 'POST /shop/v1/cart/items (new guest cart)', method: 'POST', url: `${base}/shop/v1/cart/items`, headers: json, body: cart.addBody },
      // A real placement per request: each takes its own prepared 1-line guest cart (never an idempotent replay).
      {
        name: 'POST /shop/v1/checkout/place (cod, 1 line)',
        method: 'POST',
        url: `${base}/shop/v1/checkout/place`,
        headers: json,
        body: cart.placeBody,
        pool: cart.placeSessions,
      },
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

/** A guest cart of 3 lines (for GET /cart) and `placeCarts` 1-line carts, one per measured placement. */
async function prepareCart(base: string, productIds: number[], placeCarts: number) {
  const json = { 'content-type': 'application/json' };
  const priceIds: number[] = [];
  // Placements spread over at least 20 products (100 units each), at most 50 per product, so stock
  // lasts (whatever the number of rounds) and rows are not all one hot spot.
  for (const id of productIds.slice(0, Math.max(20, Math.ceil(placeCarts / 50)))) {
    const product = (await call(`${base}/shop/v1/shop_product/${id}`).then((r) => r.json())) as { prices: { id: number }[] };
    priceIds.push(product.prices[0].id);
  }
  const add = async (priceId: number, token?: string) => {
    const once = () =>
      call(`${base}/shop/v1/cart/items`, {
        method: 'POST',
        headers: { ...json, ...(token ? { 'x-shop-session': token } : {}) },
        body: JSON.stringify({ price_id: priceId, quantity: 1 }),
      });
    // A busy machine can make a setup call miss its deadline: try again.
    const res = await once().catch(once).catch(once);
    return res.headers.get('x-shop-session')!;
  };
  const token = await add(priceIds[0]);
  for (const priceId of priceIds.slice(1, 3)) await add(priceId, token);
  const placeSessions: Record<string, string>[] = new Array(placeCarts);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < placeCarts; i = next++) placeSessions[i] = { 'x-shop-session': await add(priceIds[i % priceIds.length]) };
    }),
  );
  const placeBody = JSON.stringify({
    payment_method: 'cod',
    fields: {
      billing_first_name: 'Bench', billing_last_name: 'Mark', billing_address_1: '1 Main St', billing_city: 'Springfield',
      billing_postcode: '62701', billing_country: 'US', billing_state: 'IL', billing_email: 'bench@example.com', terms: true,
    },
  });
  return {
    session: { 'x-shop-session': token },
    placeSessions,
    addBody: JSON.stringify({ price_id: priceIds[0], quantity: 1 }),
    placeBody,
  };
}
