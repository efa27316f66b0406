import { initial } from './0001-initial';
import { listIndexes } from './0002-list-indexes';
import { orderCounts } from './0003-order-counts';
import { analyticsIndexes } from './0004-analytics-indexes';
import { lateRefunds } from './0005-late-refunds';
import { copiedText } from './0006-copied-text';
import { subscriptions } from './0007-subscriptions';

/** Every migration of the orders schema, in order. Append; never edit a released one. */
export const migrations = [initial, listIndexes, orderCounts, analyticsIndexes, lateRefunds, copiedText, subscriptions];
