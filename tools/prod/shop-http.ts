/** A minimal shop client for the production-shape tools: keeps cookies and the REST nonce, like a browser page. */
export interface Reply<T = any> {
  status: number;
  body: T;
}

export class Shopper {
  private cookies = new Map<string, string>();
  private nonce: string | undefined;

  constructor(readonly baseUrl: string) {}

  get = (path: string) => this.request('GET', path);
  post = (path: string, json?: unknown) => this.request('POST', path, json);
  put = (path: string, json?: unknown) => this.request('PUT', path, json);

  async login(username: string, password: string): Promise<void> {
    const res = await this.post('/shop/v1/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** Cookie header of this session (for load tools). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  nonceHeader(): string | undefined {
    return this.nonce;
  }

  async request(method: string, path: string, json?: unknown): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (this.nonce) headers['x-platform-nonce'] = this.nonce;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(30_000),
    });
    const nonce = res.headers.get('x-platform-nonce');
    if (nonce) this.nonce = nonce;
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      this.cookies.set(name.trim(), value.join('='));
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON; keep the text
    }
    return { status: res.status, body };
  }
}

/** Fails with the whole reply when the status is not the expected one. */
export function expectStatus(res: Reply, status: number | number[], what: string): Reply {
  const ok = Array.isArray(status) ? status.includes(res.status) : res.status === status;
  if (!ok) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 1000)}`);
  return res;
}
