import type { TObject } from 'typebox';
import type { ServiceDefinition } from '@storefront/service-kit';
import { customersService } from '@storefront/customers';
import { fulfillmentService } from '@storefront/fulfillment';
import { catalogService } from '@storefront/catalog';

/** A service of the platform and the gateway variable that carries its address. */
export interface PlatformService {
  definition: ServiceDefinition<TObject>;
  addressVariable: string;
}

/** Every backing service, in start order (a service may call the ones before it). */
export const PLATFORM_SERVICES: PlatformService[] = [
  { definition: customersService as unknown as ServiceDefinition<TObject>, addressVariable: 'CUSTOMERS_GRPC_ADDR' },
  { definition: catalogService as unknown as ServiceDefinition<TObject>, addressVariable: 'CATALOG_GRPC_ADDR' },
  { definition: fulfillmentService as unknown as ServiceDefinition<TObject>, addressVariable: 'FULFILLMENT_GRPC_ADDR' },
];
