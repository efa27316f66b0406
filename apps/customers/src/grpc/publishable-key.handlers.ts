import { customers } from '@storefront/proto/customers';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { PublishableKeyRecord } from '../domain/publishable-keys';

const toProto = (k: PublishableKeyRecord): customers.PublishableKey => ({
  id: k.id,
  name: k.name,
  key: k.key,
  allowedOrigins: k.allowedOrigins,
  created: k.createdAt,
});

/** The embed addon's keys (the gateway has already required manage_options for the admin routes). */
export function publishableKeyHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.PublishableKeyServiceService> {
  const keys = domain.publishableKeys;
  return {
    async createPublishableKey(req) {
      return { publishableKey: toProto(await keys.create(req.name, req.allowedOrigins)) };
    },
    async listPublishableKeys() {
      return { publishableKeys: (await keys.list()).map(toProto) };
    },
    async revokePublishableKey(req) {
      return { publishableKey: toProto(await keys.revoke(req.id)) };
    },
  };
}
