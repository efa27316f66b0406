import { initial } from './0001-initial';

/** Every migration of the cart schema, in order. Append; never edit a released one. */
export const migrations = [initial];
