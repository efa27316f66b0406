/** Email types the service sends (each has a template `<type>.subject|html|txt`). */
export const EMAIL_TYPES = {
  welcome: 'Welcome (new account)',
  password_reset: 'Password reset',
  erasure_requested: 'Personal data erasure request',
  order_received: 'Order received',
  order_paid: 'Order paid',
  order_completed: 'Order completed',
  order_cancelled: 'Order cancelled',
  order_refunded: 'Order refunded',
  admin_new_order: 'New order (store admin)',
  admin_order_failed: 'Failed order (store admin)',
  admin_order_cancelled: 'Cancelled order (store admin)',
} as const;
export type EmailType = keyof typeof EMAIL_TYPES;

export type { EmailLogEntry, EmailLogQuery } from '../../persistence/email-records';

export function isEmailType(value: string): value is EmailType {
  return Object.hasOwn(EMAIL_TYPES, value);
}

export interface EmailLogSettings {
  retentionDaysSent: number;
  retentionDaysFailed: number;
}

/** A rendered message, ready for the mailer. */
export interface OutgoingEmail {
  type: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The port the domain sends through (SMTP, or capture when none is configured). */
export interface Mailer {
  /** Resolves when the server accepted the message; rejects with the server's error. */
  send(message: OutgoingEmail): Promise<void>;
}
