import { sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

// Row versions behind product ETags: every update of a product row (its
// fields, prices and variations all go through it) or of a stock level bumps
// that row's version in the same statement, so a reader can tell whether what
// it showed before is still current without reading it again. The triggers
// are declared on the entities too (same names and bodies).
export const rowVersions = sqlMigration('0003_row_versions', [
  `alter table ${S}."products" add "version" bigint not null default '0'`,
  `create or replace function ${S}."products_products_next_version_fn"() returns trigger as $$ begin new.version := old.version + 1; return new; end; $$ language plpgsql`,
  `create trigger "products_next_version" before update on ${S}."products" for each row execute function ${S}."products_products_next_version_fn"()`,
  `alter table ${S}."stock_levels" add "version" bigint not null default '0'`,
  `create or replace function ${S}."stock_levels_stock_levels_next_version_fn"() returns trigger as $$ begin new.version := old.version + 1; return new; end; $$ language plpgsql`,
  `create trigger "stock_levels_next_version" before update on ${S}."stock_levels" for each row execute function ${S}."stock_levels_stock_levels_next_version_fn"()`,
]);
