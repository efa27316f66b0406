import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Counts one declined/failed attempt of a client IP in one statement (atomic
 * across replicas): a window older than `windowSeconds` restarts at 1.
 */
export async function countFailure(em: EntityManager, clientIp: string, windowSeconds: number): Promise<number> {
  const rows = await em.execute<{ failures: number }[]>(
    `insert into "payments"."failure_windows" as w ("client_ip", "window_start", "failures") values (?, now(), 1)
     on conflict ("client_ip") do update set
       "failures" = case when w."window_start" > now() - make_interval(secs => ?) then w."failures" + 1 else 1 end,
       "window_start" = case when w."window_start" > now() - make_interval(secs => ?) then w."window_start" else now() end
     returning "failures"`,
    [clientIp, windowSeconds, windowSeconds],
  );
  return Number(rows[0].failures);
}

/** Failures of the IP's current window and the seconds until it ends (none: 0, 0). */
export async function currentFailures(em: EntityManager, clientIp: string, windowSeconds: number): Promise<{ failures: number; resetsIn: number }> {
  const rows = await em.execute<{ failures: number; resets_in: string }[]>(
    `select "failures", extract(epoch from ("window_start" + make_interval(secs => ?) - now())) as "resets_in"
     from "payments"."failure_windows" where "client_ip" = ? and "window_start" > now() - make_interval(secs => ?)`,
    [windowSeconds, clientIp, windowSeconds],
  );
  if (!rows[0]) return { failures: 0, resetsIn: 0 };
  return { failures: Number(rows[0].failures), resetsIn: Number(rows[0].resets_in) };
}
