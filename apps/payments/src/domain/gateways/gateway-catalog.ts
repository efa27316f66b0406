import { invalidParams } from '@storefront/errors';
import type { PaymentsDeps } from '../deps';
import { maskedSettings, type GatewaySettingsStore } from '../settings/gateway-settings';
import { displayedDescription, displayedTitle, isAvailable, type AvailabilityQuery } from './availability';
import { supportsIntents, supportsTokens, type GatewaySettings, type PaymentGateway } from './gateway';

export interface GatewayView {
  gateway: PaymentGateway;
  settings: GatewaySettings;
  title: string;
  description: string;
  index: number;
  enabled: boolean;
  available: boolean;
  supportsIntents: boolean;
  /** Saving payment methods is allowed: the gateway can, and its `saved_cards` setting (when it has one) is on. */
  savedCards: boolean;
  publishableKey: string;
  maskedSettings: GatewaySettings;
}

export interface GatewayListParams {
  page: number;
  perPage: number;
  search: string;
  orderby: string;
  order: string;
  include: string[];
  exclude: string[];
  /** Gateway ids; empty = any. */
  slug: string[];
  /** enabled | disabled | '' (any). */
  status: string;
}

/** Reads of the registered gateways: available ones for a cart/order, all of them for admins. */
export class GatewayCatalog {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly settings: GatewaySettingsStore,
  ) {}

  async views(query: AvailabilityQuery = { hasSubscription: false }): Promise<GatewayView[]> {
    const all = await this.settings.allEffective();
    return this.deps.gateways
      .all()
      .map((gateway) => {
        const settings = all.get(gateway.id)!;
        return {
          gateway,
          settings,
          title: displayedTitle(gateway, settings),
          description: displayedDescription(gateway, settings),
          index: Number(settings.index ?? gateway.index),
          enabled: Boolean(settings.is_enabled),
          available: isAvailable(gateway, settings, query),
          supportsIntents: supportsIntents(gateway),
          savedCards: gateway.savedCards && settings.saved_cards !== false,
          publishableKey: gateway.publishableKey?.(settings) ?? '',
          maskedSettings: maskedSettings(gateway, settings),
        };
      })
      .sort((a, b) => a.index - b.index || a.gateway.id.localeCompare(b.gateway.id));
  }

  async available(query: AvailabilityQuery): Promise<GatewayView[]> {
    return (await this.views(query)).filter((v) => v.available);
  }

  /** One gateway a customer may pay with, or undefined. */
  async availableGateway(id: string, query: AvailabilityQuery): Promise<GatewayView | undefined> {
    if (!this.deps.gateways.has(id)) return undefined;
    return (await this.available(query)).find((v) => v.gateway.id === id);
  }

  /** `GET /payment/all`: every registered gateway, with collection parameters. */
  async list(params: GatewayListParams): Promise<{ views: GatewayView[]; total: number; totalPages: number }> {
    const page = params.page || 1;
    const perPage = params.perPage || 10;
    const problems: Record<string, string> = {};
    if (page < 1) problems.page = 'page must be at least 1.';
    if (perPage < 1 || perPage > 100) problems.per_page = 'per_page must be between 1 and 100.';
    if (!['', 'id', 'title', 'index'].includes(params.orderby)) problems.orderby = 'orderby must be id, title or index.';
    if (!['', 'asc', 'desc'].includes(params.order)) problems.order = 'order must be asc or desc.';
    if (!['', 'any', 'enabled', 'disabled'].includes(params.status)) problems.status = 'status must be enabled, disabled or any.';
    if (Object.keys(problems).length) throw invalidParams(problems);
    const search = params.search.trim().toLowerCase();
    let views = (await this.views()).filter(
      (v) =>
        (!search || [v.gateway.id, v.title, v.gateway.methodTitle].some((s) => s.toLowerCase().includes(search))) &&
        (!params.include.length || params.include.includes(v.gateway.id)) &&
        (!params.slug.length || params.slug.includes(v.gateway.id)) &&
        (params.status === 'enabled' ? v.enabled : params.status === 'disabled' ? !v.enabled : true) &&
        !params.exclude.includes(v.gateway.id),
    );
    const orderby = params.orderby || 'index';
    const dir = params.order === 'desc' ? -1 : 1;
    views = views.sort((a, b) => {
      const cmp = orderby === 'id' ? a.gateway.id.localeCompare(b.gateway.id) : orderby === 'title' ? a.title.localeCompare(b.title) : a.index - b.index;
      return cmp * dir;
    });
    const total = views.length;
    return { views: views.slice((page - 1) * perPage, page * perPage), total, totalPages: Math.ceil(total / perPage) };
  }

  /** What the customer is told to do to pay with `id` ("" for a gateway without instructions, or unknown). */
  async paymentInstructions(id: string): Promise<string> {
    const view = (await this.views()).find((v) => v.gateway.id === id);
    return view?.gateway.paymentInstructions?.(view.settings) ?? '';
  }

  /** Enabled gateways that can save payment methods (drives the me/menu item). */
  async tokenizationGateways(): Promise<string[]> {
    return (await this.views()).filter((v) => v.enabled && v.savedCards && supportsTokens(v.gateway)).map((v) => v.gateway.id);
  }
}
