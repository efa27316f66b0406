import type { FastifyReply, FastifyRequest } from 'fastify';

export interface CachedResponse {
  etag: string;
  /** The serialized JSON body as UTF-8 bytes: sent as they are, not re-encoded (and copied) per response. */
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * Least-recently-used cache of rendered responses, bounded by entry count and
 * by the bytes of the bodies it holds (an admin order page of 100 whole orders
 * weighs as much as hundreds of product pages, and the heap is small).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The bytes of the bodies held. */
  get size(): number {
    return this.bytes;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    // A body over a quarter of the budget would evict most of the cache for one entry: not kept.
    if (this.maxEntries <= 0 || entry.body.length > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.delete(this.entries.keys().next().value!);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

export interface ConditionalRead<T> {
  notModified: boolean;
  etag: string;
  value: T;
}

/**
 * A GET answered from a validated cache: the owning service is always asked
 * (one call, with the cached ETag), but when it says "not modified" the
 * response is the stored bytes, with no documents read, mapped or serialized.
 * Never stale: the service checks its current data on every request. Clients
 * get the ETag too, and `If-None-Match` -> 304.
 */
export async function sendConditional<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  fetch: (ifNoneMatch: string) => Promise<ConditionalRead<T>>,
  render: (value: T) => { body: unknown; headers?: Record<string, string> },
): Promise<FastifyReply> {
  const cached = cache.get(key);
  const result = await fetch(cached?.etag ?? '');
  let entry = cached;
  if (!result.notModified || !entry) {
    const rendered = render(result.value);
    entry = { etag: result.etag, body: Buffer.from(JSON.stringify(rendered.body)), headers: rendered.headers ?? {} };
    cache.set(key, entry);
  }
  const etag = `"${entry.etag}"`;
  reply.headers(entry.headers).header('ETag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}
