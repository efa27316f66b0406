/** Billing periods a subscription price can have (catalog's BILLING_PERIODS). */
export type BillingPeriod = 'day' | 'week' | 'month' | 'year';

const DAY_MS = 24 * 3600 * 1000;
const PERIODS: readonly string[] = ['day', 'week', 'month', 'year'];

/** A schedule as catalog allows one on a subscription price. */
export function validTerms(t: { billingPeriod: string; billingInterval: number; trialDays: number }): boolean {
  return (
    PERIODS.includes(t.billingPeriod) &&
    Number.isSafeInteger(t.billingInterval) && t.billingInterval >= 1 && t.billingInterval <= 365 &&
    Number.isSafeInteger(t.trialDays) && t.trialDays >= 0 && t.trialDays <= 730
  );
}

/**
 * `from` moved on by `interval` periods, in UTC. A month or year that lacks the
 * day ends on its last day (Jan 31 + 1 month = Feb 28/29), as billing
 * calendars do, instead of spilling into the next month.
 */
export function addPeriods(from: Date, period: string, interval: number): Date {
  switch (period as BillingPeriod) {
    case 'day':
      return new Date(from.getTime() + interval * DAY_MS);
    case 'week':
      return new Date(from.getTime() + interval * 7 * DAY_MS);
    case 'month':
      return addMonths(from, interval);
    case 'year':
      return addMonths(from, 12 * interval);
    default:
      throw new Error(`unknown billing period ${period}`);
  }
}

export const addDays = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);

function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}
