// The typed client end to end, as a new integrator would use it:
// log in, get a nonce, create an application password, browse products with
// it (HTTP Basic), and update the profile. Every call is typed from the
// OpenAPI document; no casts.
//   node --import tsx docs/examples/first-call.ts <base-url> <login> <password>
import { createShopClient, sessionMiddleware, type Schema } from '../../libs/client/src';

export async function firstCall(baseUrl: string, login: string, password: string): Promise<Schema<'Profile'>> {
  // 1. A browser-like session: log in (cookie + X-Platform-Nonce), or fetch a fresh nonce later.
  const session = sessionMiddleware();
  const browser = createShopClient(baseUrl);
  browser.use(session);
  const loggedIn = await browser.POST('/shop/v1/auth/login', { body: { username: login, password } });
  if (!loggedIn.data) throw new Error(`login failed: ${loggedIn.error?.code}`);
  const nonce = await browser.GET('/platform/v1/nonce');
  if (!nonce.data) throw new Error(`no nonce: ${nonce.error?.code}`);
  console.log(`logged in; nonce ${nonce.data.nonce}`);

  // 2. An application password for server-to-server calls (shown once).
  const created = await browser.POST('/platform/v1/users/me/application-passwords', { body: { name: 'first-call example' } });
  if (!created.data) throw new Error(`application password: ${created.error?.code}`);
  const api = createShopClient(baseUrl, { applicationPassword: { login, password: created.data.password } });

  // 3. Browse products (typed query parameters, typed items).
  const products = await api.GET('/shop/v1/shop_product', { params: { query: { per_page: 5, orderby: 'title', order: 'asc' } } });
  if (!products.data) throw new Error(`products: ${products.error?.code}`);
  for (const product of products.data) console.log(`#${product.id} ${product.title.rendered} ${product.prices?.[0]?.amount ?? ''}`);

  // 4. Update the profile with Basic auth.
  const updated = await api.PATCH('/shop/v1/me', { body: { first_name: 'Ada', display_name: 'Ada L.' } });
  if (!updated.data) throw new Error(`profile: ${updated.error?.code}`);
  console.log(`profile of ${updated.data.username}: ${updated.data.display_name}`);
  return updated.data;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = 'http://localhost:8080', login = 'admin', password = ''] = process.argv.slice(2);
  await firstCall(baseUrl, login, password);
}
