// Email-log rows as the repository stores them; the domain re-exports them
// (persistence never imports the domain).

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
