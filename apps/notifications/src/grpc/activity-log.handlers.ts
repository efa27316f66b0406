import { notifications } from '@storefront/proto/notifications';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { NotificationsDomain } from '../domain';
import { toProtoLogEntry } from './mappers';

export function activityLogHandlers(domain: NotificationsDomain): ServiceHandlers<typeof notifications.ActivityLogServiceService> {
  return {
    async listLogs(req) {
      const { entries, total } = await domain.activity.list({
        page: Math.max(1, req.page || 1),
        perPage: Math.min(100, Math.max(1, req.perPage || 10)),
        status: req.status,
        customerId: Number(req.customerId),
        orderId: Number(req.orderId),
      });
      return { entries: entries.map(toProtoLogEntry), total };
    },
    async getLog(req) {
      return { entry: toProtoLogEntry(await domain.activity.get(Number(req.id))) };
    },
    async deleteLogs(req) {
      return { deleted: await domain.activity.delete(req.ids.map(Number)) };
    },
    async getLogSettings() {
      return { settings: await domain.activity.settings() };
    },
    async updateLogSettings(req) {
      return {
        settings: await domain.activity.updateSettings({
          enabled: req.settings?.enabled ?? true,
          retentionDays: req.settings?.retentionDays ?? 30,
        }),
      };
    },
  };
}
