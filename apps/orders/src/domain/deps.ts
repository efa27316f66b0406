import type { Database } from '@storefront/persistence';
import type { OrdersConfig } from '../config';
import type { StoreSettings } from '@storefront/service-kit/store-settings';
import type { CatalogPort, CustomersPort, PaymentsPort, QuotePort } from './ports';
import type { OrderStatus } from './status/order-states';

/** What every domain module of the orders service works with. */
export interface OrdersDeps {
  db: Database;
  config: OrdersConfig;
  /** Customer-cancellable statuses (configured). */
  cancellable: OrderStatus[];
  catalog?: CatalogPort;
  quotes?: QuotePort;
  payments?: PaymentsPort;
  /** Account existence: an admin's order names a real customer. */
  customers?: CustomersPort;
  /** customers' store settings (cached): the currency of an order created without one. */
  store: StoreSettings;
  now: () => Date;
}

/** Who acts on an order (the gRPC caller, in domain terms). */
export interface Actor {
  userId: number;
  capabilities: string[];
}

export const SYSTEM: Actor = { userId: 0, capabilities: [] };

export { can } from '@storefront/access';
