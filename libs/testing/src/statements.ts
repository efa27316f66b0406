import pg from 'pg';

/** A statement as a pg client sent it. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * How many SQL statements matching `pattern` every pg client in this process
 * sends while `work` runs (statement counts are what list and report tests
 * bound). Match the tables of interest: the outbox relay and health checks
 * run on their own schedule and would land in the window on a busy machine.
 */
export async function statementsOf(pattern: RegExp, work: () => Promise<unknown>): Promise<number> {
  return (await statementsSent(pattern, work)).length;
}

/** The statements matching `pattern` that every pg client in this process sends while `work` runs (e.g. to EXPLAIN them). */
export async function statementsSent(pattern: RegExp, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const original = pg.Client.prototype.query;
  const sent: SentStatement[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = typeof first === 'string' ? args[1] : first?.values;
    if (pattern.test(text)) sent.push({ text, values: Array.isArray(values) ? values : [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
