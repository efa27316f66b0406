import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import compress from '@fastify/compress';

/** Responses smaller than this are sent as they are (compressing them costs more than it saves). */
const COMPRESS_THRESHOLD_BYTES = 2048;

const API = /^\/(shop|platform)\/v1(\/|\?|$)/;
/** Reads whose answer is personal or single-use: never stored. */
const NO_STORE = /^\/platform\/v1\/nonce(\?|$)/;
/** A guest's own cart and checkout (named by a cookie, `X-Shop-Session` or `session_id`): never in a shared cache. */
const SESSION_SCOPED = /^\/shop\/v1\/(cart|checkout|mini-cart)(\/|\?|$)/;

/**
 * HTTP conventions of every read, in one place:
 * - `_fields=id,title.rendered` keeps only those top-level or dotted fields
 *   (of each item of a list), as the host platform does;
 * - every cacheable GET (200, JSON) gets an `ETag` (the service's own when it
 *   set one, else a hash of the body) and `If-None-Match` answers 304;
 * - `Cache-Control` and `Vary`: guests' reads `public, no-cache` (stored, revalidated
 *   with the ETag), signed-in reads and carts and checkouts (a guest's own, by
 *   session) `private, no-cache`, the nonce `no-store`;
 * - gzip/deflate for bodies over 2 KiB (regions, lists, the OpenAPI document).
 */
export async function installHttpConventions(app: FastifyInstance): Promise<void> {
  // Synchronous (Fastify's `done` callback): no promise and microtask per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || !API.test(request.url)) return done(null, payload);
    if (reply.statusCode !== 200 || !isJson(reply)) return done(null, payload);
    let body = payload;
    const fields = fieldsOf(request);
    // A JSON body comes as text, or as bytes from the response cache.
    if (fields && isText(body) && body.length) body = JSON.stringify(filterFields(JSON.parse(String(body)), fields));
    // An embedded (keyed, cross-origin) read also varies by Origin: its CORS headers do.
    const cors = reply.hasHeader('access-control-allow-origin') ? ', Origin' : '';
    reply.header('Vary', `Accept-Encoding, Cookie, Authorization, X-Platform-Nonce, X-Shop-Session${cors}`);
    if (NO_STORE.test(request.url) || reply.getHeader('set-cookie')) {
      reply.header('Cache-Control', 'no-store');
      return done(null, body);
    }
    // The route it matched, not the raw URL (`//shop/v1/cart` reaches the cart route too).
    const personal = request.caller?.userId > 0 || SESSION_SCOPED.test(request.routeOptions.url ?? request.url);
    reply.header('Cache-Control', personal ? 'private, no-cache' : 'public, no-cache');
    if (!isText(body)) return done(null, body);
    const etag = etagOf(reply, body, fields);
    reply.header('ETag', etag);
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-length');
      return done(null, '');
    }
    done(null, body);
  });
  await app.register(compress, { threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['gzip', 'deflate'] });
}

function isJson(reply: FastifyReply): boolean {
  return /json/.test(String(reply.getHeader('content-type') ?? ''));
}

/** A serialized body: a string, or its UTF-8 bytes (hashed to the same ETag). */
function isText(body: unknown): body is string | Buffer {
  return typeof body === 'string' || Buffer.isBuffer(body);
}

function etagOf(reply: FastifyReply, body: string | Buffer, fields: string[] | undefined): string {
  const own = reply.getHeader('etag');
  if (typeof own === 'string' && own && !fields) return own;
  // One-shot: no Hash object per response (list bodies run to tens of KB).
  return `W/"${hash('sha1', body, 'base64url').slice(0, 27)}"`;
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function fieldsOf(request: FastifyRequest): string[] | undefined {
  const query = request.url.indexOf('?');
  if (query < 0) return undefined;
  const search = request.url.slice(query + 1);
  // No `_fields` key can hide in a query without the word or a percent-escape: skip parsing it.
  if (!search.includes('fields') && !search.includes('%')) return undefined;
  const params = new URLSearchParams(search);
  const values = [...params.getAll('_fields'), ...params.getAll('_fields[]')];
  if (!values.length) return undefined;
  const fields = values.flatMap((v) => v.split(',')).map((f) => f.trim()).filter(Boolean);
  return fields.length ? fields : undefined;
}

type Tree = { [key: string]: Tree | true };

/** `_fields`: keeps the named top-level and dotted fields of an object, or of each item of a list. */
export function filterFields(value: unknown, fields: string[]): unknown {
  const tree: Tree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let node = tree;
    parts.forEach((part, i) => {
      if (node[part] === true) return;
      if (i === parts.length - 1) node[part] = true;
      else node = (node[part] = (node[part] as Tree) ?? {}) as Tree;
    });
  }
  const pick = (item: unknown, branch: Tree): unknown => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(branch)) {
      if (!Object.hasOwn(item, key)) continue;
      const v = (item as Record<string, unknown>)[key];
      out[key] = sub === true ? v : Array.isArray(v) ? v.map((e) => pick(e, sub)) : pick(v, sub);
    }
    return out;
  };
  return Array.isArray(value) ? value.map((item) => pick(item, tree)) : pick(value, tree);
}
