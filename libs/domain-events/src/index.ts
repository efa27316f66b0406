// The activity-log event every service publishes. A service's own domain events
// (`<service>.<event>` bound to its proto payload) are in its own lib beside this
// one, so a change to them marks only their users under `nx affected`:
// `import { OrderEvents } from '@storefront/domain-events/orders'`.
export { ACTIVITY_SOURCES, activityLogged, type ActivitySource } from './activity';
