import type { FastifyInstance } from 'fastify';

type MetaEntry = { key?: unknown };

function names(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((v) => String(v).trim()).filter(Boolean);
}

/**
 * `include_meta` / `exclude_meta` (custom controllers): trims the `meta_data`
 * array of the response, or of every item of a list response.
 */
export function installMetaTrimming(app: FastifyInstance): void {
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const include = names(query.include_meta ?? query['include_meta[]']);
    const exclude = names(query.exclude_meta ?? query['exclude_meta[]']);
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
