import { DomainError } from '@storefront/errors';
import { bindClient, type CallerContext, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import type { CustomerDirectory } from '../domain';

// The service's own identity when it asks another service a question.
const SERVICE_CALLER: CallerContext = { userId: 0, login: '', roles: [], capabilities: [], requestId: 'catalog' };

/** Customer existence, asked of the customers service over gRPC. */
export function customersDirectory(channel: Channel | undefined): CustomerDirectory {
  const client = channel && bindClient(channel, customers.CustomerServiceService);
  return {
    async existingCustomerIds(ids) {
      if (!client) {
        throw new DomainError(
          'shop_service_unavailable',
          503,
          'The customers service is not configured (CUSTOMERS_GRPC_ADDR).',
          {
            service: 'customers',
          },
        );
      }
      return (await client.findExistingCustomers({ ids: [...ids] }, SERVICE_CALLER)).ids;
    },
  };
}
