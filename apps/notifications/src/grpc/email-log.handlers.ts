import { notifications } from '@storefront/proto/notifications';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { NotificationsDomain } from '../domain';
import { toProtoEmailLog } from './mappers';

const clampPage = (n: number) => Math.max(1, Math.trunc(n) || 1);
const clampPerPage = (n: number, d: number) => Math.min(100, Math.max(1, Math.trunc(n) || d));

export function emailLogHandlers(domain: NotificationsDomain): ServiceHandlers<typeof notifications.EmailLogServiceService> {
  const settingsOut = (s: { retentionDaysSent: number; retentionDaysFailed: number }) => ({
    settings: { retentionDaysSent: s.retentionDaysSent, retentionDaysFailed: s.retentionDaysFailed },
  });
  return {
    async listEmailLogs(req) {
      const { entries, total } = await domain.emails.list({
        page: clampPage(req.page),
        perPage: clampPerPage(req.perPage, 20),
        status: req.status,
        type: req.type,
        search: req.search,
      });
      return { entries: entries.map(toProtoEmailLog), total };
    },
    async getEmailLog(req) {
      return { entry: toProtoEmailLog(await domain.emails.get(Number(req.id))) };
    },
    async deleteEmailLog(req) {
      return { previous: toProtoEmailLog(await domain.emails.delete(Number(req.id))) };
    },
    async getEmailLogSettings() {
      return settingsOut(await domain.emails.settings());
    },
    async updateEmailLogSettings(req) {
      return settingsOut(
        await domain.emails.updateSettings({
          retentionDaysSent: req.settings?.retentionDaysSent ?? 0,
          retentionDaysFailed: req.settings?.retentionDaysFailed ?? 0,
        }),
      );
    },
    async purgeEmailLogs() {
      return { deleted: await domain.emails.purge() };
    },
    async listResendableTypes() {
      return { types: domain.emails.resendableTypes() };
    },
    async resendEmail(req) {
      return { entry: toProtoEmailLog(await domain.emails.resend(Number(req.id))) };
    },
  };
}
