import { runService } from '@storefront/service-kit';
import { customersService } from './service';

runService(customersService);
