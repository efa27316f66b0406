/**
 * One value another service owns (settings, a key list), kept for `ttlMs` so
 * a request costs no call for it. Concurrent readers share one load. An
 * `invalidate()` (on the owner's change event) makes the next read load again,
 * and a load that started before it answers its own callers but is never
 * kept: a change announced while a read was in flight is never hidden for a
 * whole TTL. A failed load keeps nothing and rejects its callers; `last` is
 * the latest value ever loaded, for callers that serve it stale in an outage.
 */
export class CachedValue<T> {
  private value: T | undefined;
  private loadedAt = 0;
  private generation = 0;
  private pending: Promise<T> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly ttlMs: number,
    /** How long a loaded value stays fresh, when it differs by value (a fallback kept briefly). */
    private readonly ttlOf: (value: T) => number = () => ttlMs,
  ) {}

  get(): Promise<T> {
    if (this.value !== undefined && this.loadedAt && Date.now() - this.loadedAt < this.ttlOf(this.value)) return Promise.resolve(this.value);
    if (this.pending) return this.pending;
    const generation = this.generation;
    const pending = this.load().then((value) => {
      if (generation === this.generation) {
        this.value = value;
        this.loadedAt = Date.now();
      }
      return value;
    });
    this.pending = pending;
    void pending
      .finally(() => {
        if (this.pending === pending) this.pending = undefined;
      })
      .catch(() => undefined);
    return pending;
  }

  /** The latest value loaded, fresh or not. */
  get last(): T | undefined {
    return this.value;
  }

  invalidate(): void {
    this.generation++;
    this.loadedAt = 0;
    this.pending = undefined;
  }
}
