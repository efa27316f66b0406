const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` in UTC: the dates of custom controllers (contract). */
export function formatDateTime(date: Date | undefined | null): string | null {
  if (!date) return null;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** ISO 8601 without zone (`2026-11-22T10:00:00`): the dates of native content-type routes. */
export function formatIsoDate(date: Date | undefined | null): string | null {
  return date ? formatDateTime(date)!.replace(' ', 'T') : null;
}
