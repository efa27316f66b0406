import { invalidParams } from '@storefront/errors';
import type { CardSummary } from '../gateways/gateway';

/** How a test card behaves when charged. */
export type CardBehaviour = 'succeed' | 'decline' | 'requires_action' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc';

/** The contract's test numbers plus a few common decline reasons. */
const TEST_NUMBERS: Record<string, CardBehaviour> = {
  '4242424242424242': 'succeed',
  '5555555555554444': 'succeed',
  '4000000000000002': 'decline',
  '4000000000003220': 'requires_action',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
};

/** Decline reasons (processor codes) of behaviours that decline. */
export const DECLINE_REASONS: Partial<Record<CardBehaviour, string>> = {
  decline: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
};

export interface CardInput {
  card_number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** Luhn check of a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/**
 * Reads `{card_number, exp_month, exp_year, cvc}` from a payload, checking
 * its shape (400 rest_invalid_param naming payment_payload fields). The
 * number and CVC leave this function only as a CardSummary (brand, last 4,
 * expiry, behaviour); they are never stored, logged or published.
 */
export function readCard(payload: Record<string, unknown>): CardSummary {
  const problems: Record<string, string> = {};
  const rawNumber = payload.card_number;
  const digits = typeof rawNumber === 'string' ? rawNumber.replace(/[\s-]/g, '') : typeof rawNumber === 'number' ? '' : '';
  if (typeof rawNumber !== 'string' || !/^\d{12,19}$/.test(digits)) {
    problems['payment_payload.card_number'] = 'card_number must be a string of 12 to 19 digits.';
  }
  const expMonth = toInt(payload.exp_month);
  const expYear = toInt(payload.exp_year);
  if (expMonth === undefined || expMonth < 1 || expMonth > 12) problems['payment_payload.exp_month'] = 'exp_month must be 1 to 12.';
  if (expYear === undefined || expYear < 0 || expYear > 9999) problems['payment_payload.exp_year'] = 'exp_year must be a year.';
  const cvc = payload.cvc;
  if (cvc !== undefined && (typeof cvc !== 'string' && typeof cvc !== 'number' || !/^\d{3,4}$/.test(String(cvc)))) {
    problems['payment_payload.cvc'] = 'cvc must be 3 or 4 digits.';
  }
  if (Object.keys(problems).length) throw invalidParams(problems);
  const year = expYear! < 100 ? 2000 + expYear! : expYear!;
  let behaviour: CardBehaviour = TEST_NUMBERS[digits] ?? 'succeed';
  if (!luhnValid(digits)) behaviour = 'decline';
  if (isExpired(expMonth!, year)) behaviour = 'expired_card';
  return { brand: brandOf(digits), last4: digits.slice(-4), expMonth: expMonth!, expYear: year, behaviour };
}

function toInt(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,4}$/.test(value)) return Number(value);
  return undefined;
}

function isExpired(month: number, year: number, now = new Date()): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}

export function displayName(card: Pick<CardSummary, 'brand' | 'last4' | 'expMonth' | 'expYear'>): string {
  const brand = card.brand === 'unknown' ? 'Card' : card.brand[0].toUpperCase() + card.brand.slice(1);
  return `${brand} ending in ${card.last4} (expires ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')})`;
}
