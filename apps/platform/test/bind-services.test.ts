import { afterAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { customers } from '@storefront/proto/customers';
import { fulfillment } from '@storefront/proto/fulfillment';
import { anonymousCaller, bindServices, openChannel } from '@storefront/grpc-client';

// libs/grpc-client's bindServices over real service packages (here, beside every service's proto lib,
// so the kit's own tests depend on no service's API). Binding opens no connection: a channel to an unused port is enough to see the shape.
const channel = openChannel('nowhere', '127.0.0.1:1', 100);
afterAll(() => channel.close());

describe('bindServices', () => {
  it('binds every service of a generated package under its short name', () => {
    expect(Object.keys(bindServices(channel, customers)).sort()).toEqual(['auth', 'customer', 'profile', 'publishableKey', 'settings']);
    expect(Object.keys(bindServices(channel, fulfillment)).sort()).toEqual(['download', 'quote', 'region', 'shipping', 'tax']);
    const clients = bindServices(channel, catalog);
    expect(Object.keys(clients)).toEqual(expect.arrayContaining(['product', 'catalogLookup', 'stock', 'coupon']));
    expect(typeof clients.product.getProduct).toBe('function');
  });

  it('makes calls over the channel (an unreachable service answers 503)', async () => {
    const { settings } = bindServices(channel, customers);
    const err = await settings.getSiteSettings({}, anonymousCaller('t')).catch((e) => e);
    expect(err).toMatchObject({ code: 'shop_service_unavailable', status: 503, data: { service: 'nowhere' } });
  });
});
