import { sqlMigration } from '@storefront/persistence';

const S = '"orders"';

/**
 * Text an order copies from other services (a product's title with its
 * variation's attributes, a gateway's title, a shipping rate's label, a tax
 * rate's name, a coupon code, a processor's transaction id) is as long as the
 * owning service allows, not as the order's column did: a 1,000-character
 * product title failed the insert (500). varchar -> text needs no rewrite.
 */
export const copiedText = sqlMigration('0006_copied_text', [
  `alter table ${S}."orders" alter column "payment_method_title" type text, alter column "transaction_id" type text`,
  `alter table ${S}."order_line_items" alter column "name" type text, alter column "sku" type text`,
  `alter table ${S}."order_shipping_lines" alter column "method_id" type text, alter column "rate_id" type text, alter column "label" type text`,
  `alter table ${S}."order_coupon_lines" alter column "code" type text`,
  `alter table ${S}."order_tax_lines" alter column "label" type text`,
]);
