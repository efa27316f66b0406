import { Type } from 'typebox';
import { formatIsoDate } from '../../http/dates';
import { ALL_CONTEXTS, EDIT_ONLY, VIEW_EDIT } from './presentation';
import { escapeHtml, renderParagraphs } from './rendering';

/** The fields every posts-shaped record (product, coupon) shares, as the proto carries them. */
export interface PostRecord {
  id: number;
  date?: Date;
  modified?: Date;
  slug: string;
  status: string;
  title: string;
  content: string;
  excerpt: string;
  author: number;
}

const IsoDate = (description: string, context: string[]) =>
  Type.Union([Type.String(), Type.Null()], {
    readOnly: true,
    context,
    description: `${description} ISO 8601 without zone (2026-11-22T10:00:00); times are UTC, so the site and GMT forms agree.`,
  });

/** `{raw, rendered}`: raw text for editors (context=edit), HTML-safe rendering for everyone. */
const RenderedText = (context: string[], description: string, withProtected: boolean) =>
  Type.Object(
    {
      raw: Type.String({ context: EDIT_ONLY, description: 'As stored (plain text).' }),
      rendered: Type.String({ context, readOnly: true, description: 'HTML-escaped; content and excerpt in <p> paragraphs.' }),
      ...(withProtected ? { protected: Type.Boolean({ context, readOnly: true, description: 'Always false.' }) } : {}),
    },
    { context, description },
  );

/** JSON Schema properties of the posts shape (host-platform posts controller). */
export const postProperties = (type: string) => ({
  id: Type.Integer({ readOnly: true, context: ALL_CONTEXTS, description: 'Unique identifier.' }),
  date: IsoDate('Creation date.', ALL_CONTEXTS),
  date_gmt: IsoDate('Creation date, GMT.', VIEW_EDIT),
  modified: IsoDate('Last modification date.', VIEW_EDIT),
  modified_gmt: IsoDate('Last modification date, GMT.', VIEW_EDIT),
  slug: Type.String({ context: ALL_CONTEXTS, description: 'URL-friendly name, unique within the type.' }),
  status: Type.Union(['publish', 'draft', 'pending', 'private', 'trash'].map((s) => Type.Literal(s)), {
    context: VIEW_EDIT,
    description: 'trash is reached through DELETE only; writing another status restores a trashed item.',
  }),
  type: Type.Literal(type, { readOnly: true, context: ALL_CONTEXTS }),
  link: Type.String({ readOnly: true, context: ALL_CONTEXTS, description: 'URL on the storefront site.' }),
  title: RenderedText(ALL_CONTEXTS, 'Title.', false),
  content: RenderedText(VIEW_EDIT, 'Content.', true),
  excerpt: RenderedText(ALL_CONTEXTS, 'Excerpt.', true),
  author: Type.Integer({ context: ALL_CONTEXTS, description: 'User id of the author (default: the creator).' }),
});

/** The shared posts-shape fields of a record, before context filtering. */
export function postFields(post: PostRecord, type: string, link: string) {
  const date = formatIsoDate(post.date);
  const modified = formatIsoDate(post.modified);
  return {
    id: post.id,
    date,
    date_gmt: date,
    modified,
    modified_gmt: modified,
    slug: post.slug,
    status: post.status,
    type,
    link,
    title: { raw: post.title, rendered: escapeHtml(post.title) },
    content: { raw: post.content, rendered: renderParagraphs(post.content), protected: false },
    excerpt: { raw: post.excerpt, rendered: renderParagraphs(post.excerpt), protected: false },
    author: post.author,
  };
}
