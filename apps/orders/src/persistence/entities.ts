import type { EntitySchema } from '@mikro-orm/core';

/**
 * The orders service reads and writes its tables with SQL (persistence/*.ts):
 * an order is read whole in one statement (lines aggregated as JSON), which
 * MikroORM entities would turn into one query per collection. The outbox and
 * inbox entities are added by openDatabase.
 */
export const entities: EntitySchema<any, any>[] = [];
