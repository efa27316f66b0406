/** True when a driver error is a Postgres unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; name?: string } | undefined;
  if (!e) return false;
  const unique = e.code === '23505' || e.name === 'UniqueConstraintViolationException';
  return unique && (!constraint || e.constraint === constraint || String((err as Error).message).includes(constraint));
}
