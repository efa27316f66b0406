/** Polls `probe` until it returns a truthy value or `timeoutMs` passes (events arrive asynchronously). */
export async function waitFor<T>(probe: () => Promise<T> | T, timeoutMs = 5000, intervalMs = 25): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`waitFor timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
