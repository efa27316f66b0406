import { defineEvent } from '@storefront/events';
import { customers } from '@storefront/proto/customers';

/** Events of the customers service (proto/shop/customers/v1/events.proto). */
export const CustomerEvents = {
  customerCreated: defineEvent('customers', 'customer_created', customers.CustomerCreated),
  customerUpdated: defineEvent('customers', 'customer_updated', customers.CustomerUpdated),
  customerDeleted: defineEvent('customers', 'customer_deleted', customers.CustomerDeleted),
  passwordResetRequested: defineEvent('customers', 'password_reset_requested', customers.PasswordResetRequested),
  passwordResetCompleted: defineEvent('customers', 'password_reset_completed', customers.PasswordResetCompleted),
  erasureRequested: defineEvent('customers', 'erase_requested', customers.ErasureRequested),
  sessionEnded: defineEvent('customers', 'session_ended', customers.SessionEnded),
  siteSettingsUpdated: defineEvent('customers', 'site_settings_updated', customers.SiteSettingsUpdated),
  emailPreferencesChanged: defineEvent('customers', 'email_preferences_changed', customers.EmailPreferencesChanged),
  publishableKeysChanged: defineEvent('customers', 'publishable_keys_changed', customers.PublishableKeysChanged),
  applicationPasswordRevoked: defineEvent(
    'customers',
    'application_password_revoked',
    customers.ApplicationPasswordRevoked,
  ),
};
