/**
 * Shares one run of `read` among the callers that arrive before it starts,
 * and never lets a caller join a run already started (its answer could
 * predate the caller). Under load, a single query in flight serves every
 * concurrent caller, yet each caller still gets an answer read after it
 * asked: reads stay as fresh as one query per call.
 */
export class FreshRead<T> {
  private queued: Promise<T> | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      const result = this.read();
      this.running = result.catch(() => undefined);
      return result;
    });
    return this.queued;
  }
}
