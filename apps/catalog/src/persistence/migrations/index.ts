import { initial } from './0001-initial';
import { productListIndex } from './0002-product-list-index';
import { rowVersions } from './0003-row-versions';
import { couponRedemptions } from './0004-coupon-redemptions';
import { downloadTerms } from './0005-download-terms';
import { productCounts } from './0006-product-counts';
import { redemptionHolders } from './0007-redemption-holders';
import { reservationRenewals } from './0008-reservation-renewals';

/** Every migration of the catalog schema, in order. Append; never edit a released one. */
export const migrations = [initial, productListIndex, rowVersions, couponRedemptions, downloadTerms, productCounts, redemptionHolders, reservationRenewals];
