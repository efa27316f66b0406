import type { Logger } from 'pino';

/**
 * Runs one shutdown step, giving up after `ms`: a pool waiting for a client
 * lost in a database outage, or a NATS drain against a broker that went away,
 * must not keep a stopping process alive forever. Failures and time-outs are
 * logged and the next step runs.
 */
export async function runBounded(step: () => Promise<void>, ms: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(ms, 1000));
    timer.unref();
  });
  try {
    const outcome = await Promise.race([step().then(() => 'done' as const), timeout]);
    if (outcome === 'timeout') logger.warn({ timeoutMs: ms }, 'shutdown step timed out; continuing');
  } catch (err) {
    logger.warn({ err }, 'cleanup failed');
  } finally {
    clearTimeout(timer);
  }
}
