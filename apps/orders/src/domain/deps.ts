import type { Database } from '@storefront/persistence';
import type { OrdersConfig } from '../config';
import type { CatalogPort, PaymentsPort, QuotePort, StorePort } from './ports';
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
  store: StorePort;
  now: () => Date;
}

/** Who acts on an order (the gRPC caller, in domain terms). */
export interface Actor {
  userId: number;
  capabilities: string[];
}

export const SYSTEM: Actor = { userId: 0, capabilities: [] };

export { can } from '@storefront/access';
