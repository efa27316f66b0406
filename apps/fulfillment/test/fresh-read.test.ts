import { describe, expect, it } from '@jest/globals';
import { FreshRead } from '../src/domain/quote/fresh-read';

describe('FreshRead', () => {
  it('shares a read among callers that arrive before it starts, never one already running', async () => {
    const releases: Array<() => void> = [];
    let reads = 0;
    const fresh = new FreshRead(() => {
      const n = ++reads;
      return new Promise<number>((resolve) => releases.push(() => resolve(n)));
    });
    const first = fresh.get();
    const sameTick = fresh.get();
    await Promise.resolve(); // the first read starts
    const late = [fresh.get(), fresh.get()]; // arrive while read 1 runs: they wait for read 2
    expect(reads).toBe(1);
    releases[0]();
    expect(await first).toBe(1);
    expect(await sameTick).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(2);
    releases[1]();
    expect(await Promise.all(late)).toEqual([2, 2]);
  });

  it('recovers after a failed read', async () => {
    let fail = true;
    const fresh = new FreshRead(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(fresh.get()).rejects.toThrow('down');
    fail = false;
    expect(await fresh.get()).toBe('ok');
  });
});
