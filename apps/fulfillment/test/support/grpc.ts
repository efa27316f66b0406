import { expect } from '@jest/globals';
import { anonymousCaller, bindServices, openChannel, type Channel, type PackageClients } from '@storefront/grpc-client';
import { DomainError } from '@storefront/errors';
import { fulfillment } from '@storefront/proto/fulfillment';
import type { RunningService } from '@storefront/service-kit';

/** The admin the gateway would forward (the service trusts the caller context). */
export const admin = { ...anonymousCaller('test'), userId: 1, login: 'admin', roles: ['administrator'], capabilities: ['manage_options'] };

type Bound = PackageClients<typeof fulfillment>;

/** Every fulfillment service bound by bindServices, under the names these tests use. */
export interface FulfillmentClients {
  channel: Channel;
  taxes: Bound['tax'];
  shipping: Bound['shipping'];
  quotes: Bound['quote'];
  regions: Bound['region'];
}

export function connect(service: RunningService): FulfillmentClients {
  const channel = openChannel('fulfillment', service.address);
  const { tax, shipping, quote, region } = bindServices(channel, fulfillment);
  return { channel, taxes: tax, shipping, quotes: quote, regions: region };
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
