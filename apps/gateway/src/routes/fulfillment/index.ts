import type { RouteModule } from '../../context';
import { bundleRoutes } from './bundle';
import { downloadRoutes } from './downloads';

/** Downloads (me/downloads, the signed file route) and bundle sync of the fulfillment service. */
export const DOWNLOAD_ROUTES: RouteModule[] = [downloadRoutes, bundleRoutes];
