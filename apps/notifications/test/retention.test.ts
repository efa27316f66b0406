import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { bindClient, anonymousCaller, openChannel, type Channel } from '@storefront/grpc-client';
import { notifications } from '@storefront/proto/notifications';
import { waitFor } from '@storefront/testing';
import { notificationsService } from '../src/service';

const admin = { ...anonymousCaller('test'), userId: 1, capabilities: ['manage_options'] };
let service: TestService;
let channel: Channel;
let db: pg.Client;

beforeAll(async () => {
  // No SMTP_URL: mail is captured; the retention job runs every second.
  service = await startTestService(notificationsService, { env: { LOG_RETENTION_SWEEP_SECONDS: '1' } });
  channel = openChannel('notifications', service.address);
  db = new pg.Client({ connectionString: service.env.DATABASE_URL });
  await db.connect();
}, 60_000);
afterAll(async () => {
  await db?.end();
  channel?.close();
  await service?.stop();
});

describe('retention', () => {
  it('the scheduled job removes entries older than the retention settings, by status', async () => {
    const logs = bindClient(channel, notifications.EmailLogServiceService);
    await logs.updateEmailLogSettings({ settings: { retentionDaysSent: 10, retentionDaysFailed: 20 } }, admin);
    const insert = `insert into "notifications"."email_logs" ("type", "to", "subject", "body", "status", "created_at")
      values ('welcome', 'a@example.test', 's', 'b', $1, now() - ($2 || ' days')::interval) returning id`;
    const ids = async (status: string, days: number) => (await db.query(insert, [status, String(days)])).rows[0].id as string;
    const oldSent = await ids('sent', 11);
    const freshSent = await ids('sent', 9);
    const oldFailed = await ids('failed', 21);
    const keptFailed = await ids('failed', 11);
    await db.query(
      `insert into "notifications"."activity_logs" ("status", "source", "message", "created_at") values ('info', 'orders', 'old', now() - interval '31 days')`,
    );
    await waitFor(async () => {
      const { rows } = await db.query(`select id from "notifications"."email_logs" where id = any($1)`, [[oldSent, oldFailed]]);
      return rows.length === 0;
    }, 15_000);
    const { rows } = await db.query(`select id from "notifications"."email_logs" order by id`);
    expect(rows.map((r) => r.id)).toEqual([freshSent, keptFailed]);
    await waitFor(async () => (await db.query(`select 1 from "notifications"."activity_logs"`)).rows.length === 0, 15_000);
  }, 60_000);

  it('without SMTP_URL a resend is captured and logged as sent', async () => {
    const logs = bindClient(channel, notifications.EmailLogServiceService);
    const { rows } = await db.query(
      `insert into "notifications"."email_logs" ("type", "to", "subject", "body", "status", "error") values ('welcome', 'c@example.test', 'Hi', 'Body', 'failed', 'down') returning id`,
    );
    const { entry } = await logs.resendEmail({ id: Number(rows[0].id) }, admin);
    expect(entry).toMatchObject({ status: 'sent', to: 'c@example.test', subject: 'Hi', body: 'Body', error: '' });
    expect((await logs.getEmailLog({ id: entry!.id }, admin)).entry?.status).toBe('sent');
  });
});
