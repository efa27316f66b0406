import type { Database } from '@storefront/persistence';
import type { FulfillmentConfig } from '../config';

/** What every domain module of the fulfillment service works with. */
export interface FulfillmentDeps {
  db: Database;
  config: FulfillmentConfig;
}
