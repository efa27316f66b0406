import { HealthImplementation } from 'grpc-health-check';
import type { Server } from '@grpc/grpc-js';
import type { Logger } from 'pino';

type Status = 'SERVING' | 'NOT_SERVING';

/** grpc.health.v1 service name the liveness probe asks: SERVING while the process runs. */
export const LIVENESS_SERVICE = 'liveness';

export interface DependencyCheck {
  /** `database`, `events`, ... (log field, metric label, health detail). */
  name: string;
  check(): Promise<boolean>;
  /**
   * Critical dependencies decide readiness ("can serve"): the database. A
   * non-critical one (the event broker: the outbox holds events meanwhile) is
   * reported — log, metric, `details` — without taking the service out of rotation.
   */
  critical: boolean;
}

/**
 * grpc.health.v1 for the whole server ('') and each gRPC service it hosts
 * (readiness), plus `liveness`, which depends on nothing outside the process.
 * Readiness is SERVING while every critical dependency answers and the
 * service is not shutting down. Every change of a dependency is logged (and
 * a reminder once a minute while it stays down) and kept in `details` for
 * metrics.
 */
export class HealthReporter {
  private readonly health = new HealthImplementation({ '': 'NOT_SERVING', [LIVENESS_SERVICE]: 'SERVING' });
  private readonly services = new Set<string>(['']);
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private current: Status = 'NOT_SERVING';
  private readonly state = new Map<string, boolean>();
  private readonly downSince = new Map<string, number>();

  constructor(
    private readonly checks: DependencyCheck[],
    private readonly logger?: Logger,
  ) {}

  addTo(server: Server): void {
    this.health.addToServer(server);
  }

  register(serviceName: string): void {
    this.services.add(serviceName);
    this.health.setStatus(serviceName, this.current);
  }

  get status(): Status {
    return this.current;
  }

  /** Last result of every dependency check (true = up). */
  get details(): Record<string, boolean> {
    return Object.fromEntries(this.state);
  }

  /** Checks now, then every `intervalMs`. */
  async start(intervalMs = 2000): Promise<void> {
    await this.refresh();
    const tick = () => {
      this.timer = setTimeout(() => void this.refresh().finally(tick), intervalMs);
      this.timer.unref();
    };
    tick();
  }

  /** First thing on SIGTERM: stop attracting traffic (liveness stays SERVING). */
  drain(): void {
    this.draining = true;
    clearTimeout(this.timer);
    this.set('NOT_SERVING');
  }

  async refresh(): Promise<void> {
    if (this.draining) return;
    const results = await Promise.all(
      this.checks.map(async (dep) => [dep, await dep.check().catch(() => false)] as const),
    );
    for (const [dep, up] of results) this.record(dep, up);
    const ready = results.every(([dep, up]) => up || !dep.critical);
    if (!this.draining) this.set(ready ? 'SERVING' : 'NOT_SERVING');
  }

  private record(dep: DependencyCheck, up: boolean): void {
    const before = this.state.get(dep.name);
    this.state.set(dep.name, up);
    if (before === up) {
      // Still down: remind once a minute, so the logs show the outage while it lasts.
      const since = this.downSince.get(dep.name);
      if (!up && since !== undefined && Date.now() - since >= 60_000) {
        this.logger?.warn({ dependency: dep.name }, `${dep.name} still unavailable`);
        this.downSince.set(dep.name, Date.now());
      }
      return;
    }
    if (up) {
      if (before !== undefined) this.logger?.info({ dependency: dep.name }, `${dep.name} available again`);
      this.downSince.delete(dep.name);
    } else {
      this.downSince.set(dep.name, Date.now());
      this.logger?.warn(
        { dependency: dep.name, critical: dep.critical },
        dep.critical ? `${dep.name} unavailable: NOT_SERVING until it is back` : `${dep.name} unavailable (still serving)`,
      );
    }
  }

  private set(status: Status): void {
    this.current = status;
    for (const name of this.services) this.health.setStatus(name, status);
  }
}
