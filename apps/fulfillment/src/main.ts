import { runService } from '@storefront/service-kit';
import { fulfillmentService } from './service';

runService(fulfillmentService);
