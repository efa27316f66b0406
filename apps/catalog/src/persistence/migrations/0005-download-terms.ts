import { sqlMigration } from '@storefront/persistence';

const S = '"catalog"';

// Download terms of a product (contract product record): -1 = unlimited / never.
export const downloadTerms = sqlMigration('0005_download_terms', [
  `alter table ${S}."products" add "download_limit" int not null default -1`,
  `alter table ${S}."products" add "download_expiry" int not null default -1`,
]);
