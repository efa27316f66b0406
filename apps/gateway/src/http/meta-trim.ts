import type { FastifyInstance } from 'fastify';

type MetaEntry = { key?: unknown };

function names(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((v) => String(v).trim()).filter(Boolean);
}

/** The meta_data keys a request keeps and drops; both undefined when it trims nothing. */
function metaTrimming(query: Record<string, unknown>): { include?: string[]; exclude?: string[] } {
  return {
    include: names(query.include_meta ?? query['include_meta[]']),
    exclude: names(query.exclude_meta ?? query['exclude_meta[]']),
  };
}

/** Whether the request trims meta_data (its response then differs from the stored bytes of the same route). */
export function trimsMeta(query: unknown): boolean {
  const { include, exclude } = metaTrimming((query ?? {}) as Record<string, unknown>);
  return include !== undefined || exclude !== undefined;
}

/**
 * `include_meta` / `exclude_meta` (custom controllers): trims the `meta_data`
 * array of the response, or of every item of a list response.
 */
export function installMetaTrimming(app: FastifyInstance): void {
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    const { include, exclude } = metaTrimming((request.query ?? {}) as Record<string, unknown>);
    if (!include && !exclude) return done(null, payload);
    const keep = (entry: MetaEntry) =>
      (!include || include.includes(String(entry.key))) && (!exclude || !exclude.includes(String(entry.key)));
    const trim = (item: unknown) => {
      if (item && typeof item === 'object' && Array.isArray((item as { meta_data?: unknown }).meta_data)) {
        const record = item as { meta_data: MetaEntry[] };
        record.meta_data = record.meta_data.filter(keep);
      }
    };
    if (Array.isArray(payload)) payload.forEach(trim);
    else trim(payload);
    done(null, payload);
  });
}
