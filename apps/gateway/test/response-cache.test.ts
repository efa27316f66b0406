import { describe, expect, it } from '@jest/globals';
import { ResponseCache, type CachedResponse } from '../src/http/response-cache';

const entry = (bytes: number, etag = 'e'): CachedResponse => ({ etag, body: Buffer.alloc(bytes, 'x'), headers: {} });

describe('the response cache', () => {
  it('evicts the least recently used entries past its entry bound', () => {
    const cache = new ResponseCache(2);
    cache.set('a', entry(10));
    cache.set('b', entry(10));
    cache.get('a');
    cache.set('c', entry(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('evicts past its byte bound, counts a replaced entry once, and keeps no body over a quarter of the bound', () => {
    const cache = new ResponseCache(100, 1000);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, entry(240));
    expect(cache.size).toBe(960);
    cache.set('d', entry(200, 'e2'));
    expect(cache.size).toBe(920);
    cache.get('a');
    cache.set('e', entry(240));
    // 1,160 bytes: the least recently used (b) goes, then 920 fit.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(920);
    expect(['a', 'c', 'd', 'e'].map((k) => cache.get(k)?.body.length)).toEqual([240, 240, 200, 240]);
    cache.set('huge', entry(251));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(920);
  });

  it('keeps nothing when turned off', () => {
    const cache = new ResponseCache(0);
    cache.set('a', entry(1));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
