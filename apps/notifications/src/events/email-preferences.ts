import type { EventHandler, EventShortcut } from '@storefront/events';
import type { customers } from '@storefront/proto/customers';
import type { NotificationsDomain } from '../domain';

/**
 * customers.email_preferences_changed -> the customer's order-email choice.
 * One idempotent statement (the newest change wins), no inbox transaction.
 */
export function onEmailPreferencesChanged(domain: NotificationsDomain) {
  const save = (p: customers.EmailPreferencesChanged, occurredAt: Date) =>
    domain.emails.saveOrderEmailChoice(Number(p.userId), p.orderEmail, p.changedAt ?? occurredAt);
  const handler: EventHandler<customers.EmailPreferencesChanged> = (envelope) => save(envelope.payload, envelope.occurredAt);
  const shortcut: EventShortcut<customers.EmailPreferencesChanged> = async (envelope) => {
    await save(envelope.payload, envelope.occurredAt);
    return true;
  };
  return { handler, shortcut };
}
