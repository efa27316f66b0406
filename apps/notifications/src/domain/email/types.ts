/** Email types the service sends (each has a template `<type>.subject|html|txt`). */
export const EMAIL_TYPES = {
  welcome: 'Welcome (new account)',
  password_reset: 'Password reset',
  erasure_requested: 'Personal data erasure request',
  order_received: 'Order received',
  order_paid: 'Order paid',
  order_cancelled: 'Order cancelled',
  order_refunded: 'Order refunded',
  admin_new_order: 'New order (store admin)',
} as const;
export type EmailType = keyof typeof EMAIL_TYPES;

export function isEmailType(value: string): value is EmailType {
  return Object.hasOwn(EMAIL_TYPES, value);
}

/** One row of the email log (contract: {id, type, to, subject, body, status, error, created_at, sent_at}). */
export interface EmailLogEntry {
  id: number;
  type: string;
  to: string;
  subject: string;
  body: string;
  html: string;
  status: 'sent' | 'failed';
  error: string;
  resentFrom: number;
  createdAt: Date;
  sentAt: Date | null;
}

export interface EmailLogQuery {
  page: number;
  perPage: number;
  status: string;
  type: string;
  search: string;
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
