import pg from 'pg';

/**
 * How many SQL statements matching `pattern` every pg client in this process
 * sends while `work` runs (statement counts are what list and report tests
 * bound). Match the tables of interest: the outbox relay and health checks
 * run on their own schedule and would land in the window on a busy machine.
 */
export async function statementsOf(pattern: RegExp, work: () => Promise<unknown>): Promise<number> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (pattern.test(text)) count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}
