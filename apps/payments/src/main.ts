import { runService } from '@storefront/service-kit';
import { paymentsService } from './service';

runService(paymentsService);
