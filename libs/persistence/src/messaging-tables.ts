import { defineEntity, p } from '@mikro-orm/core';

/** Events written in the same transaction as the change that caused them (transactional outbox). */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  indexes: [{ name: 'outbox_occurred_at_idx', properties: ['occurredAt'] }],
  properties: {
    id: p.uuid().primary(),
    subject: p.string(),
    type: p.string(),
    payload: p.blob(),
    headers: p.json<Record<string, string>>(),
    occurredAt: p.datetime(),
    claimedUntil: p.datetime().nullable(),
    attempts: p.integer().default(0),
    /** Earliest next publish attempt after a failure (per-row backoff); null = now. */
    nextAttemptAt: p.datetime().nullable(),
    /** Set once the row failed OUTBOX_MAX_ATTEMPTS times: the relay skips it until an operator replays it. */
    parkedAt: p.datetime().nullable(),
    lastError: p.text().nullable(),
  },
});

/** Ids of events a durable consumer has handled: a redelivery finds its id here and changes nothing. */
export const InboxEntry = defineEntity({
  name: 'InboxEntry',
  tableName: 'inbox',
  properties: {
    consumer: p.string().primary(),
    eventId: p.uuid().primary(),
    handledAt: p.datetime(),
  },
});

/** Events a consumer gave up on after its delivery limit (see messagingUpgradeSql; written with raw SQL). */
export const ParkedEvent = defineEntity({
  name: 'ParkedEvent',
  tableName: 'parked_event',
  properties: {
    consumer: p.string().primary(),
    eventId: p.uuid().primary(),
    subject: p.string(),
    headers: p.json<Record<string, string>>(),
    payload: p.blob(),
    deliveries: p.integer(),
    lastError: p.text(),
    parkedAt: p.datetime(),
  },
});

/**
 * Columns and tables added to the messaging tables after a service's first
 * migration; idempotent, run by `Database.migrate()` after the service's own
 * migrations.
 */
export function messagingUpgradeSql(schema: string): string[] {
  return [
    `alter table if exists "${schema}"."outbox" add column if not exists "next_attempt_at" timestamptz null`,
    `alter table if exists "${schema}"."outbox" add column if not exists "parked_at" timestamptz null`,
    `alter table if exists "${schema}"."outbox" add column if not exists "last_error" text null`,
    // Events a durable consumer gave up on after its delivery limit (poison
    // messages), kept with their payload so an operator can inspect and replay
    // them (docs/operations.md, "Parked events").
    `create table if not exists "${schema}"."parked_event" (
      "consumer" varchar(255) not null,
      "event_id" uuid not null,
      "subject" varchar(255) not null,
      "headers" jsonb not null,
      "payload" bytea not null,
      "deliveries" int not null,
      "last_error" text not null,
      "parked_at" timestamptz not null,
      primary key ("consumer", "event_id")
    )`,
  ];
}

/** DDL for the outbox and inbox tables, for a service's first migration. */
export function messagingTablesSql(schema: string): string[] {
  return [
    `create table if not exists "${schema}"."outbox" (
      "id" uuid primary key,
      "subject" varchar(255) not null,
      "type" varchar(255) not null,
      "payload" bytea not null,
      "headers" jsonb not null,
      "occurred_at" timestamptz not null,
      "claimed_until" timestamptz null,
      "attempts" int not null default 0
    )`,
    `create index if not exists "outbox_occurred_at_idx" on "${schema}"."outbox" ("occurred_at")`,
    `create table if not exists "${schema}"."inbox" (
      "consumer" varchar(255) not null,
      "event_id" uuid not null,
      "handled_at" timestamptz not null,
      primary key ("consumer", "event_id")
    )`,
  ];
}
