import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams } from '@storefront/errors';
import { Price } from '../../persistence/entities';
import { optionalAmount, requireAmount } from '../shared/amounts';
import { limitText, type PriceInputData } from './product-input';

export const PRICE_TYPES = ['onetime', 'subscription'] as const;
export const BILLING_PERIODS = ['day', 'week', 'month', 'year'] as const;
const MAX_PRICES = 50;

export interface PriceData {
  id?: number;
  name: string;
  amount: string;
  compareAtAmount: string | null;
  currency: string;
  type: (typeof PRICE_TYPES)[number];
  billingPeriod: string;
  billingInterval: number;
  trialDays: number;
}

function subscriptionTerms(
  input: PriceInputData,
  field: string,
): Pick<PriceData, 'billingPeriod' | 'billingInterval' | 'trialDays'> {
  if (!(BILLING_PERIODS as readonly string[]).includes(input.billingPeriod)) {
    throw invalidParams({
      [`${field}.billing_period`]: `billing_period must be one of ${BILLING_PERIODS.join(', ')}.`,
    });
  }
  const interval = input.billingInterval || 1;
  if (!Number.isSafeInteger(interval) || interval < 1 || interval > 365) {
    throw invalidParams({ [`${field}.billing_interval`]: 'billing_interval must be between 1 and 365.' });
  }
  if (!Number.isSafeInteger(input.trialDays) || input.trialDays < 0 || input.trialDays > 730) {
    throw invalidParams({ [`${field}.trial_days`]: 'trial_days must be between 0 and 730.' });
  }
  return { billingPeriod: input.billingPeriod, billingInterval: interval, trialDays: input.trialDays };
}

/** A checked price: onetime prices carry no billing terms, subscriptions must. */
export function parsePrice(input: PriceInputData, index: number, storeCurrency: string): PriceData {
  const field = `prices[${index}]`;
  const type = input.type || 'onetime';
  if (!(PRICE_TYPES as readonly string[]).includes(type)) {
    throw invalidParams({ [`${field}.type`]: 'type must be onetime or subscription.' });
  }
  const currency = input.currency || storeCurrency;
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw invalidParams({ [`${field}.currency`]: 'currency must be an ISO 4217 code.' });
  }
  if (type === 'onetime' && (input.billingPeriod || input.billingInterval || input.trialDays)) {
    throw invalidParams({ [`${field}.billing_period`]: 'Billing terms apply to subscription prices only.' });
  }
  const terms =
    type === 'subscription' ? subscriptionTerms(input, field) : { billingPeriod: '', billingInterval: 0, trialDays: 0 };
  return {
    id: input.id,
    name: limitText(`${field}.name`, input.name.trim(), 200),
    amount: requireAmount(`${field}.amount`, input.amount),
    compareAtAmount: optionalAmount(`${field}.compare_at_amount`, input.compareAtAmount),
    currency,
    type: type as PriceData['type'],
    ...terms,
  };
}

export function parsePrices(inputs: readonly PriceInputData[], storeCurrency: string): PriceData[] {
  if (inputs.length > MAX_PRICES) throw invalidParams({ prices: `At most ${MAX_PRICES} prices.` });
  return inputs.map((input, i) => parsePrice(input, i, storeCurrency));
}

/** Replaces a product's prices: listed ids are updated, new items added, the rest removed. */
export async function replacePrices(
  em: EntityManager,
  productId: number,
  items: readonly PriceData[],
): Promise<Price[]> {
  const existing = new Map((await em.find(Price, { productId })).map((p) => [p.id, p]));
  const foreign = items.filter((item) => item.id !== undefined && !existing.has(item.id));
  if (foreign.length) {
    throw invalidParams({
      prices: `Price id(s) ${foreign.map((f) => f.id).join(', ')} do not belong to this product.`,
    });
  }
  const kept = new Set(items.map((item) => item.id).filter((id) => id !== undefined));
  for (const price of existing.values()) if (!kept.has(price.id)) em.remove(price);
  const prices = items.map((item, position) => {
    const { id, ...fields } = item;
    const price = id !== undefined ? existing.get(id)! : em.create(Price, { productId, ...fields, position });
    Object.assign(price, fields, { position });
    return price;
  });
  await em.flush();
  return prices;
}
