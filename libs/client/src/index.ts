import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths, operations } from './schema';

/** A named schema of the API (`Schema<'Product'>`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export type ShopClient = Client<paths>;

export interface ShopClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** HTTP Basic with a login and an application password (server-to-server). */
  applicationPassword?: { login: string; password: string };
}

/**
 * A typed client of the Storefront REST API (`/shop/v1`, `/platform/v1`),
 * generated from the gateway's OpenAPI document and used through
 * openapi-fetch: paths, parameters, bodies and responses are all checked by
 * the compiler.
 */
export function createShopClient(baseUrl: string, options: ShopClientOptions = {}): ShopClient {
  const { applicationPassword, ...rest } = options;
  const client = createClient<paths>({ baseUrl, ...rest });
  if (applicationPassword) {
    const token = btoa(`${applicationPassword.login}:${applicationPassword.password}`);
    client.use({
      onRequest({ request }) {
        request.headers.set('Authorization', `Basic ${token}`);
        return request;
      },
    });
  }
  return client;
}

/**
 * A browser-like session for scripts: keeps the session cookie and the REST
 * nonce that `POST /shop/v1/auth/login` hands out, and sends them back.
 * (In a browser on the store's own origin, the cookie travels by itself.)
 */
export function sessionMiddleware(): Middleware & { nonce(): string | undefined } {
  let cookie: string | undefined;
  let nonce: string | undefined;
  return {
    nonce: () => nonce,
    onRequest({ request }) {
      if (cookie) request.headers.set('Cookie', cookie);
      if (nonce && !request.headers.has('Authorization')) request.headers.set('X-Platform-Nonce', nonce);
      return request;
    },
    onResponse({ response }) {
      const issued = response.headers.get('X-Platform-Nonce');
      if (issued) nonce = issued;
      const set = response.headers.getSetCookie().map((line) => line.split(';')[0]).filter((pair) => pair.split('=')[1]);
      if (set.length) cookie = set.join('; ');
      return response;
    },
  };
}
