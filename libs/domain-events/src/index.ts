// Every domain event of the platform: `<service>.<event>` bound to its proto
// payload. Producers record them through the outbox; consumers subscribe by
// these definitions. One file per producing service.
export { CustomerEvents } from './customers';
export { CatalogEvents } from './catalog';
export { OrderEvents } from './orders';
export { FulfillmentEvents } from './fulfillment';
export { ACTIVITY_SOURCES, activityLogged, type ActivitySource } from './activity';
