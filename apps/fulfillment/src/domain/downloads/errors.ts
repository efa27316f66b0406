import { DomainError, forbidden, gone, notFound } from '@storefront/errors';

export const permissionNotFound = () => notFound('shop_rest_download_invalid', 'Download permission not found.');
export const permissionGone = (why: 'exhausted' | 'expired') =>
  gone('shop_rest_download_gone', why === 'exhausted' ? 'No downloads remain for this file.' : 'Access to this download has expired.');
export const badSignature = () => forbidden('shop_download_invalid_signature', 'The download link is invalid.');
export const linkExpired = () => forbidden('shop_download_link_expired', 'The download link has expired.');
export const sessionNotFound = () => notFound('shop_download_session_invalid', 'Download session not found.');
export const fileNotFound = () => notFound('shop_download_file_missing', 'The file of this download is missing.');
export const pathOutsideStore = () => forbidden('shop_download_invalid_path', 'The file path is outside the store files.');
export const catalogUnavailable = () =>
  new DomainError('shop_service_unavailable', 503, 'The catalog service is not configured (CATALOG_GRPC_ADDR).', { service: 'catalog' });
