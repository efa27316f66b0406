import { describe, expect, it } from '@jest/globals';
import { CachedValue, SiteSettingsReader } from '../src';

/** A load the test settles by hand, counting the calls. */
function manualLoad<T>() {
  const calls: Array<{ resolve: (v: T) => void; reject: (e: unknown) => void }> = [];
  const load = () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
  return { load, calls };
}

describe('CachedValue', () => {
  it('shares one load among concurrent readers and keeps the value for its TTL', async () => {
    const { load, calls } = manualLoad<number>();
    const cache = new CachedValue(load, 60_000);
    const a = cache.get();
    const b = cache.get();
    expect(calls).toHaveLength(1);
    calls[0].resolve(1);
    expect(await a).toBe(1);
    expect(await b).toBe(1);
    expect(await cache.get()).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('loads again once the TTL has passed', async () => {
    let n = 0;
    const cache = new CachedValue(async () => ++n, 0);
    expect(await cache.get()).toBe(1);
    expect(await cache.get()).toBe(2);
  });

  it('never keeps a load that started before an invalidation', async () => {
    const { load, calls } = manualLoad<string>();
    const cache = new CachedValue(load, 60_000);
    const before = cache.get();
    cache.invalidate();
    const after = cache.get();
    expect(calls).toHaveLength(2);
    calls[0].resolve('old');
    calls[1].resolve('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.get()).toBe('new');
    expect(calls).toHaveLength(2);
  });

  it('keeps nothing from a failed load, and remembers the last value for stale use', async () => {
    const { load, calls } = manualLoad<string>();
    const cache = new CachedValue(load, 0);
    const first = cache.get();
    calls[0].resolve('v1');
    await first;
    const failing = cache.get();
    calls[1].reject(new Error('down'));
    await expect(failing).rejects.toThrow('down');
    expect(cache.last).toBe('v1');
    const next = cache.get();
    expect(calls).toHaveLength(3);
    calls[2].resolve('v2');
    expect(await next).toBe('v2');
  });

  it('keeps a value only as long as ttlOf says', async () => {
    let n = 0;
    const cache = new CachedValue(async () => ++n, 60_000, (v) => (v === 1 ? 0 : 60_000));
    expect(await cache.get()).toBe(1);
    expect(await cache.get()).toBe(2);
    expect(await cache.get()).toBe(2);
  });
});

describe('SiteSettingsReader', () => {
  const fallback = { siteUrl: 'http://fallback.test/', storeName: 'Fallback' };

  it('answers the owner\'s settings without a trailing slash, and the fallback while the owner is down', async () => {
    let up = true;
    const reader = new SiteSettingsReader(async () => {
      if (!up) throw new Error('unavailable');
      return { siteUrl: 'https://shop.test/', storeName: 'Shop' };
    }, fallback);
    expect(await reader.read()).toEqual({ siteUrl: 'https://shop.test', storeName: 'Shop' });
    up = false;
    reader.invalidate();
    expect(await reader.read()).toEqual({ siteUrl: 'http://fallback.test', storeName: 'Fallback' });
  });
});
