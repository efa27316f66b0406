import { initial } from './0001-initial';
import { hardening } from './0002-hardening';
import { publishableKeys } from './0003-publishable-keys';

/** Every migration of the customers schema, in order. Append; never edit a released one. */
export const migrations = [initial, hardening, publishableKeys];
