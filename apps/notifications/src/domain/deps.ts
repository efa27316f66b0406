import type { SiteSettingsSnapshot } from '@storefront/grpc-client';
import type { Database } from '@storefront/persistence';
import type { Logger } from 'pino';
import type { NotificationsConfig } from '../config';
import type { TemplateStore } from './email/templates';
import type { Mailer } from './email/types';

/** What every domain module of the notifications service works with. */
export interface NotificationsDeps {
  db: Database;
  config: NotificationsConfig;
  mailer: Mailer;
  templates: TemplateStore;
  /** The store's site URL and name as an admin set them (the source of every link and footer). */
  site: { read(): Promise<SiteSettingsSnapshot> };
  /** What a customer is told to do to pay with a gateway (payments; "" for nothing). */
  paymentInstructions(gatewayId: string): Promise<string>;
  logger: Logger;
  now(): Date;
}
