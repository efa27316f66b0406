import { runService } from '@storefront/service-kit';
import { notificationsService } from './service';

runService(notificationsService);
