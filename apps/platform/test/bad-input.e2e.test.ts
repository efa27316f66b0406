import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

// Generated from the served OpenAPI document: every operation gets NUL, invalid
// UTF-8, lone surrogates, overlong strings and deep objects in each of its path
// parameters, query parameters and top-level body fields, so routes added later
// are covered without touching this file. A client mistake is never a 5xx.

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  hasBody: boolean;
}

let stack: Platform;
let admin: ShopClient;
let operations: Operation[] = [];

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  const res = await admin.get('/shop/v1/openapi.json');
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  const doc = res.body as OpenApiDocument;
  operations = operationsOf(doc);
});
afterAll(() => stack?.stop());

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string } | { $ref: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

function operationsOf(doc: OpenApiDocument): Operation[] {
  const resolve = (schema: JsonSchema | undefined, depth = 0): JsonSchema | undefined => {
    if (!schema || depth > 5) return schema;
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!], depth + 1);
    return schema;
  };
  const fieldsOf = (schema: JsonSchema | undefined): string[] => {
    const s = resolve(schema);
    if (!s) return [];
    const own = Object.keys(s.properties ?? {});
    const nested = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((x) => fieldsOf(x));
    return [...new Set([...own, ...nested])];
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (op.parameters ?? []).filter((p): p is { name: string; in: string } => 'name' in p);
      const body = op.requestBody?.content?.['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: fieldsOf(body),
        hasBody: !!op.requestBody,
      });
    }
  }
  return out;
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const OVERLONG = 'x'.repeat(5000);
const HUGE = 'y'.repeat(120_000);
const deep = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { k: value };
  return value;
};

/** A path with every `{param}` filled (`1` unless the param is the one under attack). */
function fillPath(op: Operation, attacked?: string, raw?: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === attacked ? raw! : '1'));
}

interface Case {
  label: string;
  method: string;
  url: string;
  body?: string;
}

function casesFor(op: Operation): Case[] {
  const cases: Case[] = [];
  const send = (label: string, url: string, body?: string) => cases.push({ label: `${op.method} ${op.path} ${label}`, method: op.method, url, body });
  const baseBody = op.hasBody ? '{}' : undefined;
  for (const name of op.pathParams) {
    send(`path ${name}=NUL`, fillPath(op, name, encodeURIComponent(NUL)), baseBody);
    send(`path ${name}=%FF`, fillPath(op, name, '%FF%FE'), baseBody);
    send(`path ${name}=overlong`, fillPath(op, name, OVERLONG), baseBody);
  }
  const path = fillPath(op);
  for (const [i, name] of op.queryParams.entries()) {
    const q = (v: string) => `${path}?${encodeURIComponent(name)}=${v}`;
    send(`query ${name}=NUL`, q(encodeURIComponent(NUL)), baseBody);
    send(`query ${name}=%FF`, q('%FF%FE%80'), baseBody);
    send(`query ${name}=overlong`, q(OVERLONG), baseBody);
    if (i === 0) {
      send(`query ${name}=surrogate`, q('%ED%A0%80'), baseBody);
      send(`query ${name}[]=array`, `${path}?${encodeURIComponent(name)}[a][b]=1&${encodeURIComponent(name)}=2`, baseBody);
    }
  }
  if (op.hasBody) {
    for (const [i, name] of op.bodyFields.entries()) {
      const body = (v: unknown) => JSON.stringify({ [name]: v });
      send(`body ${name}=NUL`, path, body(NUL));
      send(`body ${name}=overlong`, path, body(OVERLONG));
      send(`body ${name}=deep`, path, body(deep(40)));
      send(`body ${name}={NUL key}`, path, body({ [NUL]: 1 }));
      if (i === 0) {
        send(`body ${name}=surrogate`, path, body(LONE_SURROGATE));
        send(`body ${name}=huge`, path, body(HUGE));
        send(`body ${name}=[NUL]`, path, body([NUL]));
      }
    }
    // Invalid UTF-8 bytes inside a JSON string (sent as raw bytes below).
    send('body invalid UTF-8', path, `{"${op.bodyFields[0] ?? 'x'}": "a\u00ff\u00feb"}`);
  }
  return cases;
}

function authHeaders(): Record<string, string> {
  return { cookie: `shop_session=${admin.cookie('shop_session')}`, 'x-platform-nonce': admin.nonce ?? '' };
}

async function sendCase(c: Case): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = authHeaders();
  let body: string | Buffer | undefined;
  if (c.body !== undefined) {
    headers['content-type'] = 'application/json';
    // 'body invalid UTF-8' carries latin1 bytes 0xFF 0xFE: not UTF-8 at all.
    body = c.label.endsWith('invalid UTF-8') ? Buffer.from(c.body, 'latin1') : c.body;
  }
  const res = await fetch(stack.url + c.url, { method: c.method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/** One raw HTTP/1.x exchange, so Host can be malformed or missing. */
function rawRequest(lines: string[]): Promise<{ status: number; body: string; raw: string }> {
  const port = Number(new URL(stack.url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, raw: data, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

async function inParallel<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]);
      }
    }),
  );
  return results;
}

describe('bad input to every operation of the OpenAPI document', () => {
  it('never answers 5xx; every error is the spec error object', async () => {
    expect(operations.length).toBeGreaterThan(20);
    const cases = operations.flatMap(casesFor);
    const started = Date.now();
    const results = await inParallel(cases, 8, async (c) => ({ c, res: await sendCase(c) }));
    // 501 with a spec code is a deliberate answer (users cannot be trashed), not a fault.
    const fault = (res: { status: number; body: any }) =>
      res.status >= 500 && !(res.status === 501 && res.body?.code !== 'shop_internal_error');
    const failures = results
      .filter(({ res }) => fault(res) || res.status === 0 || (res.status >= 400 && res.body?.data?.status !== res.status))
      .map(({ c, res }) => `${c.label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    process.stdout.write(`bad-input: ${operations.length} operations, ${cases.length} requests in ${Date.now() - started} ms\n`);
    expect(failures).toEqual([]);
    expect((await admin.get('/healthz')).status).toBe(200);
  });

  it('NUL anywhere is 400 rest_invalid_param naming the field', async () => {
    const guest = new ShopClient(stack.url);
    const login = await guest.post('/shop/v1/auth/login', { username: NUL, password: 'x' });
    expectError(login, 400, 'rest_invalid_param');
    expect(Object.keys(login.body.data.params)).toEqual(['username']);
    const search = await guest.get(`/shop/v1/products?search=${encodeURIComponent(NUL)}`);
    expectError(search, 400, 'rest_invalid_param');
    expect(Object.keys(search.body.data.params)).toEqual(['search']);
    const nested = await admin.post('/shop/v1/products', { name: 'n', meta: { a: { b: NUL } } });
    expectError(nested, 400, 'rest_invalid_param');
    expect(Object.keys(nested.body.data.params)).toEqual(['meta.a.b']);
    const tooDeep = await admin.post('/shop/v1/products', { name: 'n', meta: deep(33) });
    expectError(tooDeep, 400, 'rest_invalid_param');
  });

  it('malformed or missing Host headers on every collection route: no 5xx, links from the site URL', async () => {
    const collections = operations.filter((op) => op.method === 'GET' && !op.pathParams.length).map((op) => op.path);
    expect(collections.length).toBeGreaterThan(5);
    const auth = Object.entries(authHeaders()).map(([k, v]) => `${k}: ${v}`).join('\r\n');
    const hosts = [['Host: a b'], ['Host: [::1'], ['Host: x:99999'], ['Host: evil.example'], []];
    const cases = collections.flatMap((path) =>
      hosts.map((host) => ({ path, host, version: host.length ? '1.1' : '1.0' })),
    );
    const results = await inParallel(cases, 6, async (c) => ({
      c,
      res: await rawRequest([`GET ${c.path} HTTP/${c.version}`, ...c.host, auth, 'Connection: close']),
    }));
    const failures = results
      .filter(({ res }) => res.status >= 500 || res.status === 0 || res.raw.includes('evil.example'))
      .map(({ c, res }) => `${c.path} [${c.host.join()}] -> ${res.status} ${res.body.slice(0, 200)}`);
    expect(failures).toEqual([]);
    // The links of a list answered with a forged Host name the configured site.
    const forged = results.filter(({ c, res }) => c.host[0] === 'Host: evil.example' && res.status === 200);
    expect(forged.length).toBeGreaterThan(5);
  });

  it('Fastify and Node parser errors are the spec error object too', async () => {
    const badHeader = await rawRequest(['GET /shop/v1 HTTP/1.1', 'Host: x', 'Bad Header: y', 'Connection: close']);
    expect(badHeader.status).toBe(400);
    expect(JSON.parse(badHeader.body)).toMatchObject({ code: expect.any(String), data: { status: 400 } });
    const big = await rawRequest(['GET /shop/v1 HTTP/1.1', 'Host: x', `X-Big: ${'z'.repeat(20_000)}`, 'Connection: close']);
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ code: 'rest_headers_too_large', data: { status: 431 } });
    const badUrl = await admin.get('/shop/v1/customer/%E0%A4%A');
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.data.status).toBe(400);
  });
});
