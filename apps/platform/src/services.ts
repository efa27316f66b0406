import type { ServiceDefinition } from '@storefront/service-kit';
import { customersService } from '@storefront/customers';
import { catalogService } from '@storefront/catalog';
import { fulfillmentService } from '@storefront/fulfillment';
import { paymentsService } from '@storefront/payments';
import { ordersService } from '@storefront/orders';
import { notificationsService } from '@storefront/notifications';
import { cartService } from '@storefront/cart';

/** A service of the platform and the gateway variable that carries its address. */
export interface PlatformService {
  // Each service has its own config schema; the platform only passes environment through.
  definition: ServiceDefinition<any>;
  addressVariable: string;
}

/** Every backing service, in start order (ports are chosen up front, so a service may call any other). */
export const PLATFORM_SERVICES: PlatformService[] = [
  { definition: customersService, addressVariable: 'CUSTOMERS_GRPC_ADDR' },
  { definition: catalogService, addressVariable: 'CATALOG_GRPC_ADDR' },
  { definition: fulfillmentService, addressVariable: 'FULFILLMENT_GRPC_ADDR' },
  { definition: paymentsService, addressVariable: 'PAYMENTS_GRPC_ADDR' },
  { definition: ordersService, addressVariable: 'ORDERS_GRPC_ADDR' },
  { definition: cartService, addressVariable: 'CART_GRPC_ADDR' },
  { definition: notificationsService, addressVariable: 'NOTIFICATIONS_GRPC_ADDR' },
];
