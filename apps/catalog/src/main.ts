import { runService } from '@storefront/service-kit';
import { catalogService } from './service';

runService(catalogService);
