import type { EventEnvelope, EventHandler, EventShortcut } from '@storefront/events';
import type { SiteSettingsSnapshot } from '@storefront/grpc-client';
import type { NotificationsDomain } from '../domain';
import type { Delivery, EmailRequest } from '../domain/email/emails';

/** A consumer that turns an event into emails: the handler and the shortcut `ctx.consume` takes. */
export interface EmailConsumer<T> {
  handler: EventHandler<T>;
  shortcut: EventShortcut<T>;
}

/**
 * The emails `emailsOf` asks for (given the store's site URL and name),
 * sent once per event. The shortcut sends them
 * with no transaction open and records the event with their log entries in
 * one statement (Emails.sendOnce). Only when a send failed does the event take
 * the inbox transaction: the handler then logs that delivery (the failure is
 * also an activity-log event, in the outbox) without sending again; the
 * delivery passes from shortcut to handler with the envelope, which both get.
 */
export function emailConsumer<T>(
  domain: NotificationsDomain,
  emailsOf: (payload: T, site: SiteSettingsSnapshot) => EmailRequest[] | Promise<EmailRequest[]>,
): EmailConsumer<T> {
  // What the shortcut's sending did, for the handler: it runs inside the inbox transaction, where
  // rendering (a site-settings read, gRPC on a cold cache) or sending must not happen.
  const failed = new WeakMap<EventEnvelope<T>, Delivery>();
  return {
    shortcut: async (envelope, consumer) => {
      const emails = await domain.emails.wanted(await emailsOf(envelope.payload, await domain.deps.site.read()));
      // Nothing to send (no address, or the customer wants no order emails).
      if (!emails.length) return true;
      const delivery = await domain.emails.sendOnce(emails, { consumer, eventId: envelope.id });
      if (!delivery) return true;
      failed.set(envelope, delivery);
      return false;
    },
    handler: async (envelope, em) => {
      const delivery = failed.get(envelope);
      if (!delivery) throw new Error('an email event reached its transaction without its delivery (the shortcut sends first)');
      await domain.emails.logDelivery(em, delivery);
      failed.delete(envelope);
    },
  };
}
