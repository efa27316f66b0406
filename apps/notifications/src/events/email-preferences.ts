import { idempotentConsumer } from '@storefront/events';
import type { customers } from '@storefront/proto/customers';
import type { NotificationsDomain } from '../domain';

/**
 * customers.email_preferences_changed -> the customer's order-email choice.
 * One idempotent statement (the newest change wins), no inbox transaction.
 */
export function onEmailPreferencesChanged(domain: NotificationsDomain) {
  return idempotentConsumer<customers.EmailPreferencesChanged>(({ payload, occurredAt }) =>
    domain.emails.saveOrderEmailChoice(Number(payload.userId), payload.orderEmail, payload.changedAt ?? occurredAt),
  );
}
