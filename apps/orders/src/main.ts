import { runService } from '@storefront/service-kit';
import { ordersService } from './service';

runService(ordersService);
