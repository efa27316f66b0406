import { invalidParams } from '@storefront/errors';
import { TaxRate } from '../../persistence/entities';
import { bumpQuoteRevision } from '../../persistence/revision.repository';
import { listTaxRates, type TaxRateListQuery } from '../../persistence/tax-rates.repository';
import { taxRateNotFound, trashNotSupported } from '../errors';
import type { FulfillmentDeps } from '../deps';
import { normalizeTaxRate, TAX_RATE_DEFAULTS, type TaxRateInput, type TaxRateValues } from './tax-rate-values';

/** List parameters as the REST collection takes them; 0 / "" mean "default". */
export interface TaxRateListParams {
  page: number;
  perPage: number;
  offset: number;
  order: string;
  orderby: string;
}

const MAX_PER_PAGE = 100;

/** Admin CRUD of tax rates (the gateway has already required manage_options). */
export class TaxRates {
  constructor(private readonly deps: FulfillmentDeps) {}

  async list(params: TaxRateListParams): Promise<{ rates: TaxRate[]; total: number; totalPages: number }> {
    const query = listQuery(params);
    const { rates, total } = await listTaxRates(this.deps.db.em(), query);
    return { rates, total, totalPages: Math.ceil(total / query.perPage) };
  }

  async get(id: number): Promise<TaxRate> {
    const rate = await this.deps.db.em().findOne(TaxRate, { id });
    if (!rate) throw taxRateNotFound();
    return rate;
  }

  create(input: TaxRateInput): Promise<TaxRate> {
    const values = normalizeTaxRate({ ...TAX_RATE_DEFAULTS, ...definedOnly(input) });
    return this.deps.db.em().transactional(async (em) => {
      const rate = em.create(TaxRate, values);
      await bumpQuoteRevision(em);
      return rate;
    });
  }

  update(id: number, input: TaxRateInput): Promise<TaxRate> {
    return this.deps.db.em().transactional(async (em) => {
      const rate = await em.findOne(TaxRate, { id });
      if (!rate) throw taxRateNotFound();
      em.assign(rate, normalizeTaxRate({ ...valuesOf(rate), ...definedOnly(input) }));
      await bumpQuoteRevision(em);
      return rate;
    });
  }

  /** Permanent deletion only: tax rates have no trash. */
  delete(id: number, force: boolean): Promise<TaxRate> {
    return this.deps.db.em().transactional(async (em) => {
      const rate = await em.findOne(TaxRate, { id });
      if (!rate) throw taxRateNotFound();
      if (!force) throw trashNotSupported();
      em.remove(rate);
      await bumpQuoteRevision(em);
      return rate;
    });
  }
}

function listQuery(params: TaxRateListParams): TaxRateListQuery {
  const problems: Record<string, string> = {};
  const page = params.page || 1;
  const perPage = params.perPage || 10;
  if (page < 1) problems.page = 'page must be at least 1.';
  if (perPage < 1 || perPage > MAX_PER_PAGE) problems.per_page = `per_page must be between 1 and ${MAX_PER_PAGE}.`;
  if (params.offset < 0) problems.offset = 'offset must not be negative.';
  if (!['', 'asc', 'desc'].includes(params.order)) problems.order = 'order must be asc or desc.';
  if (!['', 'id', 'order', 'priority'].includes(params.orderby)) problems.orderby = 'orderby must be id, order or priority.';
  if (Object.keys(problems).length) throw invalidParams(problems);
  return {
    perPage,
    skip: params.offset > 0 ? params.offset : (page - 1) * perPage,
    orderby: (params.orderby || 'order') as TaxRateListQuery['orderby'],
    order: (params.order || 'asc') as TaxRateListQuery['order'],
  };
}

function valuesOf(rate: TaxRate): TaxRateValues {
  const { country, state, postcode, city, name, priority, compound, shipping, order } = rate;
  return { country, state, postcode, city, rate: rate.rate, name, priority, compound, shipping, order, class: rate.class };
}

/** Absent (undefined) fields keep the value they are merged over. */
function definedOnly(input: TaxRateInput): TaxRateInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}
