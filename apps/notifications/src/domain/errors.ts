import { invalidParams, notFound } from '@storefront/errors';

export const emailLogNotFound = () => notFound('shop_rest_invalid_id', 'Invalid email log ID.');
export const logEntryNotFound = () => notFound('shop_rest_invalid_id', 'Invalid log entry ID.');

export const notResendable = (type: string) =>
  invalidParams({ id: `Email type "${type}" cannot be resent.` });
