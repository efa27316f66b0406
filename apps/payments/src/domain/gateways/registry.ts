import type { PaymentGateway } from './gateway';

export type GatewayClass = new () => PaymentGateway;
export type GatewayFactory = () => PaymentGateway;

/**
 * Registered gateways (spec 2.11): eagerly, a list of gateway classes
 * instantiated at once; lazily, an id mapped to a class or factory that runs
 * only when the gateway is first needed. `ids()` lists both without
 * instantiating the lazy ones.
 */
export class GatewayRegistry {
  private readonly instances = new Map<string, PaymentGateway>();
  private readonly lazy = new Map<string, GatewayFactory>();
  private readonly order: string[] = [];

  registerEager(classes: GatewayClass[]): this {
    for (const Gateway of classes) {
      const gateway = new Gateway();
      this.add(gateway.id);
      this.instances.set(gateway.id, gateway);
    }
    return this;
  }

  registerLazy(entries: Record<string, GatewayClass | GatewayFactory>): this {
    for (const [id, entry] of Object.entries(entries)) {
      this.add(id);
      this.lazy.set(id, isClass(entry) ? () => new entry() : (entry as GatewayFactory));
    }
    return this;
  }

  ids(): string[] {
    return [...this.order];
  }

  has(id: string): boolean {
    return this.instances.has(id) || this.lazy.has(id);
  }

  get(id: string): PaymentGateway | undefined {
    const existing = this.instances.get(id);
    if (existing) return existing;
    const factory = this.lazy.get(id);
    if (!factory) return undefined;
    const gateway = factory();
    if (gateway.id !== id) throw new Error(`lazy gateway "${id}" built a gateway with id "${gateway.id}"`);
    this.instances.set(id, gateway);
    this.lazy.delete(id);
    return gateway;
  }

  /** Whether a lazy gateway has been built yet (for tests and diagnostics). */
  isInstantiated(id: string): boolean {
    return this.instances.has(id);
  }

  all(): PaymentGateway[] {
    return this.order.map((id) => this.get(id)!);
  }

  private add(id: string): void {
    if (this.has(id)) throw new Error(`gateway "${id}" registered twice`);
    this.order.push(id);
  }
}

function isClass(entry: GatewayClass | GatewayFactory): entry is GatewayClass {
  return typeof entry === 'function' && /^class\s/.test(Function.prototype.toString.call(entry));
}
