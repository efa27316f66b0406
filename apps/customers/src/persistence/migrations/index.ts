import { initial } from './0001-initial';
import { hardening } from './0002-hardening';

/** Every migration of the customers schema, in order. Append; never edit a released one. */
export const migrations = [initial, hardening];
