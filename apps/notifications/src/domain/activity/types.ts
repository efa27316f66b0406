export { LOG_STATUSES, type LogStatus, type ActivityLogEntry, type ActivityLogQuery } from '../../persistence/activity-records';

export interface ActivityLogSettings {
  enabled: boolean;
  retentionDays: number;
}
