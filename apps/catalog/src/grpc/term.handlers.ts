import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';
import { fromTermFields, toProtoTerm } from './term.mappers';

export function termHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.TermServiceService> {
  const { terms } = domain;
  return {
    async listTerms(req, caller) {
      const result = await terms.list(caller, req);
      return { terms: result.terms.map(toProtoTerm), total: result.total, totalPages: result.totalPages };
    },
    async getTerm(req, caller) {
      return { term: toProtoTerm(await terms.get(caller, req.taxonomy, req.id, req.context)) };
    },
    async createTerm(req, caller) {
      return { term: toProtoTerm(await terms.create(caller, req.taxonomy, fromTermFields(req.fields))) };
    },
    async updateTerm(req, caller) {
      return { term: toProtoTerm(await terms.update(caller, req.taxonomy, req.id, fromTermFields(req.fields))) };
    },
    async deleteTerm(req, caller) {
      return { previous: toProtoTerm(await terms.delete(caller, req.taxonomy, req.id, req.force)) };
    },
  };
}
