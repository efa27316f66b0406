import { can, denied, type Actor } from '../shared/actor';
import { PUBLISHING_STATUSES, type PostStatus } from './post-status';
import type { PostTypeRules } from './post-types';

// The host platform's posts-controller permission rules, decided from the
// caller's capabilities. Pure functions: they throw, or return nothing.

/** `context=edit` exposes raw fields meant for editors. */
function assertContextAllowed(rules: PostTypeRules, actor: Actor, context: string): void {
  if (context === 'edit' && !can(actor, rules.editCollection)) {
    throw denied(actor, 'rest_forbidden_context', `Sorry, you are not allowed to edit ${rules.noun}s.`);
  }
}

export function assertCanList(
  rules: PostTypeRules,
  actor: Actor,
  statuses: readonly PostStatus[],
  context: string,
): void {
  assertContextAllowed(rules, actor, context);
  if (rules.publishedNeedsReadCapability && !can(actor, rules.readOne)) {
    throw denied(actor, 'rest_cannot_read', `Sorry, you are not allowed to list ${rules.noun}s.`);
  }
  if (statuses.some((s) => s !== 'publish') && !can(actor, rules.editCollection)) {
    throw denied(actor, 'rest_forbidden_status', 'Status is forbidden.');
  }
}

/** Whether the actor may see an item in this status at all. */
export function canRead(rules: PostTypeRules, actor: Actor, status: string): boolean {
  switch (status) {
    case 'publish':
      return !rules.publishedNeedsReadCapability || can(actor, rules.readOne);
    case 'private':
      return can(actor, rules.readPrivate);
    default:
      return can(actor, rules.editOne);
  }
}

export function assertCanRead(rules: PostTypeRules, actor: Actor, status: string, context: string): void {
  if (context === 'edit' && !can(actor, rules.editOne)) {
    throw denied(actor, 'rest_forbidden_context', `Sorry, you are not allowed to edit this ${rules.noun}.`);
  }
  if (!canRead(rules, actor, status)) {
    throw denied(actor, 'rest_forbidden', `Sorry, you are not allowed to view this ${rules.noun}.`);
  }
}

function assertCanSetStatus(rules: PostTypeRules, actor: Actor, status: PostStatus | undefined): void {
  if (status && PUBLISHING_STATUSES.includes(status) && !can(actor, rules.publish)) {
    throw denied(actor, 'rest_cannot_publish', `Sorry, you are not allowed to publish ${rules.noun}s.`);
  }
}

export function assertCanCreate(rules: PostTypeRules, actor: Actor, status: PostStatus | undefined): void {
  if (!can(actor, rules.editCollection)) {
    throw denied(actor, 'rest_cannot_create', `Sorry, you are not allowed to create ${rules.noun}s.`);
  }
  assertCanSetStatus(rules, actor, status);
}

export function assertCanUpdate(rules: PostTypeRules, actor: Actor, status: PostStatus | undefined): void {
  if (!can(actor, rules.editOne)) {
    throw denied(actor, 'rest_cannot_edit', `Sorry, you are not allowed to edit this ${rules.noun}.`);
  }
  assertCanSetStatus(rules, actor, status);
}

export function assertCanDelete(rules: PostTypeRules, actor: Actor): void {
  if (!can(actor, rules.deleteOne)) {
    throw denied(actor, 'rest_cannot_delete', `Sorry, you are not allowed to delete this ${rules.noun}.`);
  }
}

/** Writing an author other than oneself is editing someone else's item. */
export function assertCanAssignAuthor(rules: PostTypeRules, actor: Actor, author: number): void {
  if (author !== actor.userId && !can(actor, rules.editCollection.replace('edit_', 'edit_others_'))) {
    throw denied(
      actor,
      'rest_cannot_edit_others',
      `Sorry, you are not allowed to set another author on ${rules.noun}s.`,
    );
  }
}
