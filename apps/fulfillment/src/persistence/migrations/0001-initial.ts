import { messagingTablesSql, sqlMigration } from '@storefront/persistence';

const S = '"fulfillment"';

export const initial = sqlMigration('0001_initial', [
  ...messagingTablesSql('fulfillment'),
  `create table ${S}."tax_rates" (
    "id" serial primary key,
    "country" varchar(2) not null default '',
    "state" varchar(200) not null default '',
    "postcode" text not null default '',
    "city" text not null default '',
    "rate" numeric(9,4) not null,
    "name" varchar(200) not null default '',
    "priority" int not null default 1,
    "compound" boolean not null default false,
    "shipping" boolean not null default true,
    "order" int not null default 0,
    "class" varchar(100) not null default 'standard'
  )`,
  `create index "tax_rates_order_idx" on ${S}."tax_rates" ("order", "id")`,
  `create table ${S}."shipping_zones" (
    "id" serial primary key,
    "name" varchar(200) not null,
    "order" int not null default 0
  )`,
  // The permanent "rest of the world" zone; serial ids start at 1, so 0 never collides.
  `insert into ${S}."shipping_zones" ("id", "name", "order") values (0, 'Locations not covered by your other zones', 0)`,
  `create table ${S}."shipping_zone_locations" (
    "id" serial primary key,
    "zone_id" int not null,
    "code" varchar(200) not null,
    "type" varchar(20) not null,
    constraint "shipping_zone_locations_zone_id_foreign" foreign key ("zone_id")
      references ${S}."shipping_zones" ("id") on delete cascade
  )`,
  `create index "shipping_zone_locations_zone_idx" on ${S}."shipping_zone_locations" ("zone_id")`,
  `create table ${S}."shipping_method_instances" (
    "instance_id" serial primary key,
    "zone_id" int not null,
    "method_id" varchar(40) not null,
    "title" varchar(200) not null,
    "enabled" boolean not null default true,
    "order" int not null default 0,
    "settings" jsonb not null,
    constraint "shipping_method_instances_zone_id_foreign" foreign key ("zone_id")
      references ${S}."shipping_zones" ("id") on delete cascade
  )`,
  `create index "shipping_method_instances_zone_idx" on ${S}."shipping_method_instances" ("zone_id")`,
  `create table ${S}."configuration_revisions" (
    "name" varchar(50) primary key,
    "revision" int not null default 0
  )`,
  `insert into ${S}."configuration_revisions" ("name", "revision") values ('quote', 1)`,
]);
