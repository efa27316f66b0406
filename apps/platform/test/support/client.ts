import { checkResponse } from './contract';

/** A response as the tests look at it. */
export interface ShopResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Raw body (sent as is); otherwise `json` is serialized. */
  raw?: string;
  json?: unknown;
}

/**
 * An HTTP client like a browser page on the store: keeps the session cookie
 * and sends the REST nonce it was given, or HTTP Basic credentials.
 */
export class ShopClient {
  private cookies = new Map<string, string>();
  nonce: string | undefined;
  basic: string | undefined;

  constructor(readonly baseUrl: string) {}

  static basic(baseUrl: string, login: string, password: string): ShopClient {
    const client = new ShopClient(baseUrl);
    client.basic = Buffer.from(`${login}:${password}`).toString('base64');
    return client;
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, json?: unknown, options?: RequestOptions) => this.request('POST', path, { json, ...options });
  put = (path: string, json?: unknown, options?: RequestOptions) => this.request('PUT', path, { json, ...options });
  patch = (path: string, json?: unknown, options?: RequestOptions) => this.request('PATCH', path, { json, ...options });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
  options = (path: string) => this.request('OPTIONS', path);

  /** Logs in through the storefront route and keeps cookie + nonce. */
  async login(username: string, password: string): Promise<ShopResponse> {
    const res = await this.post('/shop/v1/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ShopResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.nonce && !('x-platform-nonce' in headers)) headers['x-platform-nonce'] = this.nonce;
    if (this.basic) headers.authorization = `Basic ${this.basic}`;
    let body: string | undefined = options.raw;
    if (body === undefined && options.json !== undefined) body = JSON.stringify(options.json);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    this.remember(res);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (docs page); keep the text
    }
    const response = { status: res.status, headers: res.headers, body: parsed };
    checkResponse(this.baseUrl, method, path, response);
    return response;
  }

  private remember(res: Response): void {
    const nonce = res.headers.get('x-platform-nonce');
    if (nonce) this.nonce = nonce;
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair.split('=');
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a.trim()));
      if (expired || !value.join('=')) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
  }
}

/** The spec's error object, for assertions. */
export function expectError(res: ShopResponse, status: number, code?: string): void {
  const ok =
    res.status === status &&
    res.body?.data?.status === status &&
    typeof res.body?.message === 'string' &&
    (code === undefined || res.body?.code === code);
  if (!ok) throw new Error(`expected ${status} ${code ?? ''}, got ${res.status} ${JSON.stringify(res.body)}`);
}
