import { invalidParams, missingParams } from '@storefront/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ShippingMethodInstance } from '../../persistence/entities';
import { bumpQuoteRevision } from '../../persistence/revision.repository';
import { nextMethodOrder, toMethodRecord, zoneExists, type MethodInstanceRecord } from '../../persistence/shipping.repository';
import { methodInstanceNotFound, zoneNotFound } from '../errors';
import type { FulfillmentDeps } from '../deps';
import { mergeSettings, methodType, type MethodType, type Settings } from './method-types';

export interface NewMethodInstance {
  methodId: string;
  name?: string;
  enabled?: boolean;
  order?: number;
  settings?: Settings;
}

export interface MethodInstanceChanges {
  /** Required. */
  name?: string;
  /** Required; another zone moves the instance there. */
  zoneId?: number;
  enabled?: boolean;
  order?: number;
  settings?: Settings;
}

const MAX_TITLE = 200;

/** Method instances of zones (the gateway has already required manage_options). */
export class ShippingMethods {
  constructor(private readonly deps: FulfillmentDeps) {}

  async listForZone(zoneId: number): Promise<MethodInstanceRecord[]> {
    const em = this.deps.db.em();
    if (!(await zoneExists(em, zoneId))) throw zoneNotFound();
    const methods = await em.find(ShippingMethodInstance, { zone: zoneId }, { orderBy: { order: 'asc', instanceId: 'asc' } });
    return methods.map(toMethodRecord);
  }

  /** An unknown method_id in the body is a bad parameter (400); a missing zone is 404. */
  create(zoneId: number, input: NewMethodInstance): Promise<MethodInstanceRecord> {
    const type = methodType(input.methodId);
    if (!type) throw invalidParams({ method_id: `Unknown shipping method type "${input.methodId}".` });
    const settings = mergeSettings(type, {}, input.settings ?? {});
    const title = input.name?.trim() ? instanceTitle(input.name) : type.title;
    const order = input.order === undefined ? undefined : methodOrder(input.order);
    return this.deps.db.em().transactional(async (em) => {
      if (!(await zoneExists(em, zoneId))) throw zoneNotFound();
      const instance = em.create(ShippingMethodInstance, {
        zone: zoneId,
        methodId: type.id,
        title,
        enabled: input.enabled ?? true,
        order: order ?? (await nextMethodOrder(em, zoneId)),
        settings,
      });
      await bumpQuoteRevision(em);
      await em.flush();
      return toMethodRecord(instance);
    });
  }

  async get(methodId: string, instanceId: number): Promise<MethodInstanceRecord> {
    return toMethodRecord(await findInstance(this.deps.db.em(), methodId, instanceId));
  }

  update(methodId: string, instanceId: number, changes: MethodInstanceChanges): Promise<MethodInstanceRecord> {
    const missing = (['name', 'zoneId'] as const).filter((k) => changes[k] === undefined);
    if (missing.length) throw missingParams(missing.map((k) => (k === 'zoneId' ? 'zone_id' : k)));
    const title = instanceTitle(changes.name!);
    const order = changes.order === undefined ? undefined : methodOrder(changes.order);
    return this.deps.db.em().transactional(async (em) => {
      const instance = await findInstance(em, methodId, instanceId);
      if (!(await zoneExists(em, changes.zoneId!))) throw zoneNotFound();
      const type = methodType(instance.methodId) as MethodType;
      em.assign(instance, {
        zone: changes.zoneId!,
        title,
        enabled: changes.enabled ?? instance.enabled,
        order: order ?? instance.order,
        settings: mergeSettings(type, instance.settings, changes.settings ?? {}),
      });
      await bumpQuoteRevision(em);
      await em.flush();
      return toMethodRecord(instance);
    });
  }

  delete(methodId: string, instanceId: number): Promise<MethodInstanceRecord> {
    return this.deps.db.em().transactional(async (em) => {
      const instance = await findInstance(em, methodId, instanceId);
      const previous = toMethodRecord(instance);
      em.remove(instance);
      await bumpQuoteRevision(em);
      return previous;
    });
  }
}

/** The route addresses an instance by type and id: both must agree, else 404. */
async function findInstance(em: EntityManager, methodId: string, instanceId: number): Promise<ShippingMethodInstance> {
  const instance = await em.findOne(ShippingMethodInstance, { instanceId, methodId });
  if (!instance) throw methodInstanceNotFound();
  return instance;
}

function instanceTitle(value: string): string {
  const title = value.trim();
  if (!title) throw invalidParams({ name: 'name must not be empty.' });
  if (title.length > MAX_TITLE) throw invalidParams({ name: `name is longer than ${MAX_TITLE} characters.` });
  return title;
}

function methodOrder(value: number): number {
  if (!Number.isInteger(value) || value < 0) throw invalidParams({ order: 'order must be a non-negative integer.' });
  return value;
}
