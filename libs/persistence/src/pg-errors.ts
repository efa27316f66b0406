/** True when a driver error is a Postgres unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; name?: string } | undefined;
  if (!e) return false;
  const unique = e.code === '23505' || e.name === 'UniqueConstraintViolationException';
  return unique && (!constraint || e.constraint === constraint || String((err as Error).message).includes(constraint));
}

/**
 * A Postgres error caused by the values a client sent, not by a fault:
 * class 22 "data exception" (value too long for its column, NUL or an invalid
 * byte sequence, numeric out of range, invalid datetime...) and 54000 (a
 * value too large for an index). Services answer these 400, never 500.
 */
export function isClientDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code === '54000');
}

/**
 * The database connection was lost or refused (server restart, failover,
 * pg_terminate_backend, network): SQLSTATE 57P01-57P03, class 08 and 53300, or the
 * driver's own connection errors. Transient: services answer 503, the pools
 * reconnect on next use.
 */
export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  // 53300: the server is out of connection slots (other clients); transient like a refused connection.
  if (/^57P0[123]$/.test(code) || code.startsWith('08') || code === '53300') return true;
  if (['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  // "timeout exceeded when trying to connect": pg-pool waited connectionTimeoutMillis for a free connection.
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    String(e?.message ?? ''),
  );
}
