import { DomainError, forbidden, notFound } from '@storefront/errors';

// The service's own error codes: WooCommerce's REST codes with the
// `woocommerce_rest_` prefix turned into `shop_rest_`, so clients of a
// Woo-style API recognize them.

export const taxRateNotFound = () => notFound('shop_rest_invalid_id', 'Invalid resource ID.');

export const zoneNotFound = () => notFound('shop_rest_shipping_zone_invalid', 'Resource does not exist.');

export const methodInstanceNotFound = () =>
  notFound('shop_rest_shipping_zone_method_invalid', 'Resource does not exist.');

/** Zone 0 is permanent and has no locations of its own. */
export const restOfWorldZoneLocked = (action: 'updated' | 'deleted') =>
  forbidden(
    'shop_rest_shipping_zone_invalid_zone',
    `The "locations not covered by your other zones" zone cannot be ${action}.`,
  );

/** Host-platform convention (contract): deleting without force=true. */
export const trashNotSupported = () =>
  new DomainError('rest_trash_not_supported', 501, 'Tax rates do not support trashing. Set force to true to delete.');
