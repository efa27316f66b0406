// Activity-log rows as the repository stores them; the domain re-exports them
// (persistence never imports the domain).

export const LOG_STATUSES = ['info', 'success', 'warning', 'error'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/** One activity-log entry (contract: {id, status, source, message, context, created_at}). */
export interface ActivityLogEntry {
  id: number;
  status: LogStatus;
  source: string;
  message: string;
  context: Record<string, unknown>;
  customerId: number;
  orderId: number;
  createdAt: Date;
}

export interface ActivityLogQuery {
  page: number;
  perPage: number;
  status: string;
  customerId: number;
  orderId: number;
}
