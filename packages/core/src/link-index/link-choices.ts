/**
 * Links as people pick them in a host's dropdown or picker: a readable label, and a text search through the
 * whole account (the API has no text search, so the list is read page by page and matched here).
 */
import { MAX_PAGE_SIZE } from '../basics/page-size';
import { WalkGuard } from '../reading/walk-guard';
import type { Link, LinkPage, ListLinksOptions } from '../types';

/** "Title (short URL)": random slugs are unreadable; without a title, the short URL alone. */
export function linkChoiceLabel(link: Pick<Link, 'title' | 'shortUrl'>): string {
  const title = link.title?.trim();
  return title ? `${title} (${link.shortUrl})` : link.shortUrl;
}

/**
 * "Title (short URL) → target": for pickers where links that differ only in their target (one per UTM
 * variant of a page) would otherwise look the same.
 */
export function linkChoiceLabelWithTarget(link: Pick<Link, 'title' | 'shortUrl' | 'targetUrl'>): string {
  return `${linkChoiceLabel(link)} → ${link.targetUrl}`;
}

/** Whether the text occurs (any case) in the link's title, slug, short URL or target URL. */
export function linkMatchesText(link: Pick<Link, 'title' | 'slug' | 'shortUrl' | 'targetUrl'>, text: string): boolean {
  const needle = text.toLowerCase();
  return [link.title, link.slug, link.shortUrl, link.targetUrl].some((value) => (value ?? '').toLowerCase().includes(needle));
}

export interface LinkTextSearchOptions {
  /** Where an earlier call stopped (its nextCursor); undefined starts at the newest link. */
  cursor?: string;
  /** Pages read at most in this call (100 links each). */
  maxPages: number;
  /** The call stops once it has this many matches. */
  enough: number;
}

/**
 * One call of a picker's search: reads on from `cursor` until it has `enough` matches, `maxPages` pages or
 * the end of the list; `nextCursor` lets the next call (scrolling) search on from there.
 */
export async function searchLinksByText(
  listLinks: (options: ListLinksOptions) => Promise<LinkPage>,
  text: string,
  options: LinkTextSearchOptions,
): Promise<{ links: Link[]; nextCursor: string | undefined }> {
  const links: Link[] = [];
  let cursor = options.cursor;
  // Within this call the guard remembers every continuation and id; across calls (scrolling) the page
  // token carries the last continuations (walk-guard.ts), so a circling service ends the search.
  const guard = new WalkGuard('the search');
  for (let page = 0; page < options.maxPages; page++) {
    const answer = await listLinks(cursor === undefined ? { limit: MAX_PAGE_SIZE } : { limit: MAX_PAGE_SIZE, cursor });
    const fresh = guard.page(cursor, answer.links, answer.nextCursor);
    links.push(...fresh.filter((link) => linkMatchesText(link, text)));
    cursor = answer.nextCursor ?? undefined;
    if (cursor === undefined || links.length >= options.enough) break;
  }
  return { links, nextCursor: cursor };
}
