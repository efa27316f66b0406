import { initial } from './0001-initial';
import { listIndexes } from './0002-list-indexes';

/** Every migration of the orders schema, in order. Append; never edit a released one. */
export const migrations = [initial, listIndexes];
