import { HealthImplementation } from 'grpc-health-check';
import type { Server } from '@grpc/grpc-js';

type Status = 'SERVING' | 'NOT_SERVING';

/**
 * grpc.health.v1 for the whole server ('') and each gRPC service it hosts.
 * Reports SERVING only while every dependency check passes and the service is
 * not shutting down.
 */
export class HealthReporter {
  private readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly services = new Set<string>(['']);
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private current: Status = 'NOT_SERVING';

  constructor(private readonly checks: Array<() => Promise<boolean>>) {}

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

  /** Checks now, then every `intervalMs`. */
  async start(intervalMs = 2000): Promise<void> {
    await this.refresh();
    const tick = () => {
      this.timer = setTimeout(() => void this.refresh().finally(tick), intervalMs);
      this.timer.unref();
    };
    tick();
  }

  /** First thing on SIGTERM: stop attracting traffic. */
  drain(): void {
    this.draining = true;
    clearTimeout(this.timer);
    this.set('NOT_SERVING');
  }

  async refresh(): Promise<void> {
    if (this.draining) return;
    const results = await Promise.all(this.checks.map((check) => check().catch(() => false)));
    if (!this.draining) this.set(results.every(Boolean) ? 'SERVING' : 'NOT_SERVING');
  }

  private set(status: Status): void {
    this.current = status;
    for (const name of this.services) this.health.setStatus(name, status);
  }
}
