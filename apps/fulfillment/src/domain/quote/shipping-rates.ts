import type { FreeShippingRequirement } from '../shipping/method-types';
import type { ActiveMethod, MatchableZone } from './snapshot';

/** A rate the customer can choose, before tax. */
export interface OfferedRate {
  /** "<method_id>:<instance_id>" */
  id: string;
  methodId: string;
  instanceId: number;
  label: string;
  cost: bigint;
}

export interface FreeShippingContext {
  couponFreeShipping: boolean;
  /** Compared with min_amount, in minor units. */
  subtotal: bigint;
}

/** The zone's enabled methods whose conditions hold, in method order. */
export function offeredRates(zone: MatchableZone, context: FreeShippingContext): OfferedRate[] {
  return zone.methods.filter((method) => isAvailable(method, context)).map(toRate);
}

function isAvailable(method: ActiveMethod, context: FreeShippingContext): boolean {
  if (method.kind !== 'free_shipping') return true;
  return freeShippingAllowed(method.requires, context.couponFreeShipping, context.subtotal >= method.minAmountMinor);
}

export function freeShippingAllowed(requires: FreeShippingRequirement, coupon: boolean, minAmountMet: boolean): boolean {
  switch (requires) {
    case 'none':
      return true;
    case 'coupon':
      return coupon;
    case 'min_amount':
      return minAmountMet;
    case 'either':
      return coupon || minAmountMet;
    case 'both':
      return coupon && minAmountMet;
  }
}

function toRate(method: ActiveMethod): OfferedRate {
  return {
    id: `${method.kind}:${method.instanceId}`,
    methodId: method.kind,
    instanceId: method.instanceId,
    label: method.title,
    cost: method.kind === 'free_shipping' ? 0n : method.costMinor,
  };
}
