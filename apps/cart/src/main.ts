import { runService } from '@storefront/service-kit';
import { cartService } from './service';

runService(cartService);
