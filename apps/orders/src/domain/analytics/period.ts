import { invalidParams } from '@storefront/errors';
import { isIsoCurrency } from '@storefront/money';
import type { DayRange } from '../../persistence/analytics.repository';

export type { DayRange };

/** The longest period (and compare window) a report covers, in days: ten years of daily intervals. */
export const MAX_DAYS = 3660;
export const DEFAULT_COMPARE_DAYS = 30;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
export const addDays = (day: string, days: number) => dayOf(msOf(day) + days * DAY_MS);

/** A strict Y-m-d calendar date (2026-02-30 is not one), or the reason it is not. */
function checkDate(value: string, name: string, bad: Record<string, string>): string | undefined {
  if (!DATE_ONLY.test(value)) {
    bad[name] = `${name} must be a date as YYYY-MM-DD.`;
    return undefined;
  }
  const ms = msOf(value);
  if (Number.isNaN(ms) || dayOf(ms) !== value || value < '1970-01-01') {
    bad[name] = `${name} is not a valid date.`;
    return undefined;
  }
  return value;
}

/** The same day one calendar month earlier (clamped: 03-31 -> 02-28). */
export function oneMonthBefore(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const year = m === 1 ? y - 1 : y;
  const month = m === 1 ? 12 : m - 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * The reported period: `to` defaults to today (UTC), `from` to one month ago
 * (spec 4.17), or, for a `to` before that, to one month before `to` (never an
 * empty period nobody asked for); both inclusive. 400 rest_invalid_param
 * naming each bad field (malformed or impossible date, from after to, longer
 * than MAX_DAYS).
 */
export function parsePeriod(input: { from?: string; to?: string }, now: Date): DayRange {
  const bad: Record<string, string> = {};
  const today = dayOf(now.getTime());
  const to = input.to === undefined || input.to === '' ? today : checkDate(input.to, 'to', bad);
  const monthAgo = oneMonthBefore(today);
  // Never before the first day a date may name (1970-01-01), as a `from` sent would be refused.
  const earliest = (day: string) => (day < '1970-01-01' ? '1970-01-01' : day);
  const defaultFrom = to ? earliest(monthAgo <= to ? monthAgo : oneMonthBefore(to)) : undefined;
  const from = input.from === undefined || input.from === '' ? defaultFrom : checkDate(input.from, 'from', bad);
  if (from && to) {
    if (from > to) bad.from = `from (${from}) is after to (${to}).`;
    else if ((msOf(to) - msOf(from)) / DAY_MS + 1 > MAX_DAYS) bad.from = `The period covers at most ${MAX_DAYS} days.`;
  }
  if (Object.keys(bad).length || !from || !to) throw invalidParams(bad);
  return { from, to };
}

/** The `compare` days before the period: [from - compare, from - 1]. */
export function previousWindow(period: DayRange, compare: number | undefined): DayRange {
  const days = compare ?? DEFAULT_COMPARE_DAYS;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_DAYS) {
    throw invalidParams({ compare: `compare must be an integer from 1 to ${MAX_DAYS}.` });
  }
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}

/** ISO 4217 code (any case) -> upper case; "" stays "" (the store currency). */
export function parseCurrency(value: string): string {
  const code = value.trim().toUpperCase();
  if (code && !isIsoCurrency(code)) throw invalidParams({ currency: 'currency must be an ISO 4217 code (USD, EUR, ...).' });
  return code;
}
