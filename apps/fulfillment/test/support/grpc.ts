import { expect } from '@jest/globals';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { DomainError } from '@storefront/errors';
import { fulfillment } from '@storefront/proto';
import type { RunningService } from '@storefront/service-kit';

/** The admin the gateway would forward (the service trusts the caller context). */
export const admin = { ...anonymousCaller('test'), userId: 1, login: 'admin', roles: ['administrator'], capabilities: ['manage_options'] };

export interface FulfillmentClients {
  channel: Channel;
  taxes: ReturnType<typeof bindClient<typeof fulfillment.TaxServiceService>>;
  shipping: ReturnType<typeof bindClient<typeof fulfillment.ShippingServiceService>>;
  quotes: ReturnType<typeof bindClient<typeof fulfillment.QuoteServiceService>>;
  regions: ReturnType<typeof bindClient<typeof fulfillment.RegionServiceService>>;
}

export function connect(service: RunningService): FulfillmentClients {
  const channel = openChannel('fulfillment', service.address);
  return {
    channel,
    taxes: bindClient(channel, fulfillment.TaxServiceService),
    shipping: bindClient(channel, fulfillment.ShippingServiceService),
    quotes: bindClient(channel, fulfillment.QuoteServiceService),
    regions: bindClient(channel, fulfillment.RegionServiceService),
  };
}

/** The DomainError a call failed with. */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

/** A 400 rest_invalid_param naming `param` (never INTERNAL). */
export async function expectInvalidParam(promise: Promise<unknown>, param: string): Promise<string> {
  const err = await rejection(promise);
  expect([err.code, err.status]).toEqual(['rest_invalid_param', 400]);
  const params = err.data.params as Record<string, string>;
  expect(Object.keys(params)).toContain(param);
  return params[param];
}
