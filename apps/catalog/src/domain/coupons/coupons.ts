import { CatalogEvents } from '@storefront/domain-events/catalog';
import { recordEvent } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, gone, invalidParams, notFound } from '@storefront/errors';
import { isUniqueViolation } from '@storefront/persistence';
import { Coupon } from '../../persistence/entities';
import { holderUses } from '../../persistence/coupon-redemptions.repository';
import type { RedemptionHolder } from '../../persistence/redemption-types';
import {
  codeTaken,
  deleteCoupon,
  findCoupon,
  findPublishedByCode,
  listCoupons,
} from '../../persistence/coupons.repository';
import type { Actor } from '../shared/actor';
import {
  assertPageExists,
  parseContext,
  parsePostCollection,
  totalPages,
  type PostCollectionInput,
} from '../posts/collection-query';
import { assertCouponConsistent, parseCouponScalars, type CouponInput, type CouponScalars } from './coupon-input';
import { assertReferencesExist, missingCatalogReferences, missingCustomers } from './coupon-references';
import type { CatalogDeps } from '../deps';
import { isId } from '../shared/ids';
import { mergeMeta } from '../shared/meta';
import {
  assertCanAssignAuthor,
  assertCanCreate,
  assertCanDelete,
  assertCanList,
  assertCanRead,
  assertCanUpdate,
} from '../posts/post-permissions';
import { COUPON_RULES } from '../posts/post-types';
import { slugify } from '../shared/slug';

const codeExists = () => conflict('shop_coupon_code_exists', 'A coupon with this code already exists.');
const invalidCouponId = () => notFound('rest_post_invalid_id', 'Invalid coupon ID.');

/** The shop_coupon content type: posts-controller reads and writes plus the coupon's own rules. */
export class CouponCatalog {
  private readonly bogoAddon: boolean;

  constructor(private readonly deps: CatalogDeps) {
    this.bogoAddon = deps.config.SHOP_ADDONS.split(',')
      .map((a) => a.trim())
      .includes('bogo');
  }

  async list(
    actor: Actor,
    input: PostCollectionInput | undefined,
  ): Promise<{ coupons: Coupon[]; total: number; totalPages: number }> {
    const query = parsePostCollection(input);
    assertCanList(COUPON_RULES, actor, query.statuses, query.context);
    const { coupons, total } = await listCoupons(this.deps.db.em(), query);
    assertPageExists(query, total);
    return { coupons, total, totalPages: totalPages(total, query.perPage) };
  }

  async get(actor: Actor, id: number, context: string): Promise<Coupon> {
    const coupon = await this.require(this.deps.db.em(), id);
    assertCanRead(COUPON_RULES, actor, coupon.status, parseContext(context));
    return coupon;
  }

  /**
   * For the cart: the published coupon with this code (null when there is
   * none) and, when it limits uses per customer, how often `holder` (the
   * customer, or a guest's email) has used it.
   */
  async findByCode(code: string, holder: RedemptionHolder = { customerId: 0, email: '' }): Promise<{ coupon: Coupon | null; holderUses: number }> {
    const trimmed = code.trim();
    const em = this.deps.db.em();
    const coupon = trimmed ? await findPublishedByCode(em, trimmed) : null;
    const counted = coupon && (coupon.usageLimitPerUser ?? 0) > 0 && (holder.customerId > 0 || holder.email);
    return { coupon, holderUses: counted ? await holderUses(em, coupon.id, { customerId: holder.customerId, email: holder.email.toLowerCase() }) : 0 };
  }

  async create(actor: Actor, input: CouponInput): Promise<Coupon> {
    const scalars = parseCouponScalars(input, this.bogoAddon);
    const title = scalars.title;
    if (title === undefined) throw invalidParams({ title: 'The coupon code (title) is required.' });
    const status = scalars.status ?? 'draft';
    assertCanCreate(COUPON_RULES, actor, status);
    const authorId = scalars.authorId ?? actor.userId;
    assertCanAssignAuthor(COUPON_RULES, actor, authorId);
    await this.checkReferences(scalars);
    return this.write(async (em) => {
      const now = this.deps.now();
      const coupon = em.create(Coupon, {
        ...this.defaults(),
        ...scalars,
        title,
        slug: slugify(title) || 'coupon',
        status,
        authorId,
        createdAt: now,
        modifiedAt: now,
        meta: mergeMeta({}, input.meta),
      });
      await this.checkBeforeSave(em, coupon, scalars);
      return coupon;
    });
  }

  async update(actor: Actor, id: number, input: CouponInput): Promise<Coupon> {
    const current = await this.require(this.deps.db.em(), id);
    const scalars = parseCouponScalars(input, this.bogoAddon);
    assertCanUpdate(COUPON_RULES, actor, scalars.status);
    if (scalars.authorId !== undefined && scalars.authorId !== current.authorId) {
      assertCanAssignAuthor(COUPON_RULES, actor, scalars.authorId);
    }
    await this.checkReferences(scalars);
    return this.write(async (em) => {
      const coupon = await this.require(em, id);
      Object.assign(coupon, scalars);
      if (scalars.title !== undefined) coupon.slug = slugify(scalars.title) || 'coupon';
      coupon.meta = mergeMeta(coupon.meta, input.meta);
      coupon.modifiedAt = this.deps.now();
      await this.checkBeforeSave(em, coupon, scalars);
      return coupon;
    });
  }

  async delete(actor: Actor, id: number, force: boolean): Promise<{ coupon: Coupon; deleted: boolean }> {
    return this.deps.db.em().transactional(async (em) => {
      const coupon = await this.require(em, id);
      assertCanDelete(COUPON_RULES, actor);
      recordEvent(em, CatalogEvents.couponChanged, { couponId: coupon.id });
      if (force) {
        await deleteCoupon(em, coupon.id);
        return { coupon, deleted: true };
      }
      if (coupon.status === 'trash') throw gone('rest_already_trashed', 'The coupon has already been deleted.');
      coupon.status = 'trash';
      coupon.modifiedAt = this.deps.now();
      return { coupon, deleted: false };
    });
  }

  private async require(em: EntityManager, id: number): Promise<Coupon> {
    const coupon = isId(id) ? await findCoupon(em, id) : null;
    if (!coupon) throw invalidCouponId();
    return coupon;
  }

  /** Every reference, before any transaction opens: the customers check is a gRPC call. */
  private async checkReferences(scalars: CouponScalars): Promise<void> {
    const catalog = await missingCatalogReferences(this.deps.db.em(), scalars);
    assertReferencesExist({ ...catalog, customer_ids: await missingCustomers(this.deps.customers, scalars) });
  }

  /** Inside the transaction: the coupon's own consistency, its code, and catalog references again (cheap, local). */
  private async checkBeforeSave(em: EntityManager, coupon: Coupon, scalars: CouponScalars): Promise<void> {
    assertCouponConsistent(coupon);
    if (coupon.status !== 'trash' && (await codeTaken(em, coupon.title, coupon.id ?? 0))) throw codeExists();
    assertReferencesExist({ ...(await missingCatalogReferences(em, scalars)), customer_ids: [] });
  }

  private async write(work: (em: EntityManager) => Promise<Coupon>): Promise<Coupon> {
    try {
      return await this.deps.db.em().transactional(async (em) => {
        const coupon = await work(em);
        await em.flush();
        // Priced carts hold copies of applied coupons: they drop them on this event.
        recordEvent(em, CatalogEvents.couponChanged, { couponId: coupon.id });
        return coupon;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'coupons_code_lower_unique')) throw codeExists();
      throw err;
    }
  }

  private defaults() {
    return {
      content: '',
      excerpt: '',
      discountType: 'fixed_cart',
      amount: '0.00',
      usageLimit: null,
      usageLimitPerUser: null,
      usageCount: 0,
      allowedProductIds: [],
      allowedPriceIds: [],
      allowedCustomerIds: [],
      excludedProductIds: [],
      minimumAmount: null,
      maximumAmount: null,
      expiryDate: null,
      individualUse: false,
      freeShipping: false,
      bogoBuyQuantity: 0,
      bogoGetQuantity: 0,
    };
  }
}
