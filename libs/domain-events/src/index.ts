import { defineEvent } from '@storefront/events';
import { customers } from '@storefront/proto';

/**
 * Every domain event of the platform, in one place: `<service>.<event>` with
 * its proto payload. Producers record them through the outbox; consumers
 * subscribe by these definitions.
 */
export const CustomerEvents = {
  customerCreated: defineEvent('customers', 'customer_created', customers.CustomerCreated),
  customerUpdated: defineEvent('customers', 'customer_updated', customers.CustomerUpdated),
  customerDeleted: defineEvent('customers', 'customer_deleted', customers.CustomerDeleted),
  passwordResetRequested: defineEvent('customers', 'password_reset_requested', customers.PasswordResetRequested),
  passwordResetCompleted: defineEvent('customers', 'password_reset_completed', customers.PasswordResetCompleted),
  erasureRequested: defineEvent('customers', 'erase_requested', customers.ErasureRequested),
  sessionEnded: defineEvent('customers', 'session_ended', customers.SessionEnded),
  applicationPasswordRevoked: defineEvent(
    'customers',
    'application_password_revoked',
    customers.ApplicationPasswordRevoked,
  ),
};
