import { createHash } from 'node:crypto';

/**
 * A line's key: the same price and variation always give the same key, in
 * every cart and session (so a merged guest line lands on the customer's line).
 */
export function itemKeyOf(priceId: number, variationId: number): string {
  return createHash('md5').update(`${priceId}:${variationId}`).digest('hex');
}

export const ITEM_KEY = /^[0-9a-f]{32}$/;
