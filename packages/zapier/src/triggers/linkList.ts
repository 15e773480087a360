import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { clientFor } from '../client';
import type { Link } from '@shortlink/core/portable';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Links per dropdown page: the API's largest page, so "load more" is rarely needed. */
export const LINK_DROPDOWN_PAGE_SIZE = 100;

/**
 * What a Link dropdown shows for a link: random slugs are unreadable, so the title comes first when there
 * is one, then the short URL that tells links of the same title apart.
 */
export function dropdownLabel(link: Pick<Link, 'title' | 'shortUrl'>): string {
  const title = link.title?.trim();
  return title ? `${title} (${link.shortUrl})` : link.shortUrl;
}

/**
 * Hidden trigger behind the Link dropdowns. canPaginate: Zapier asks for page 0, 1, 2… on "load more";
 * the API pages by cursor, so the cursor of the next page is kept in z.cursor between those calls.
 * An empty cursor marks the last page (z.cursor only stores strings).
 */
async function perform(z: ZObject, bundle: Bundle) {
  let cursor: string | undefined;
  if (bundle.meta?.page) {
    cursor = (await z.cursor.get()) || undefined;
    if (cursor === undefined) return []; // the previous page was the last one
  }
  const page = await clientFor(z, bundle).listLinks({ limit: LINK_DROPDOWN_PAGE_SIZE, cursor });
  await z.cursor.set(page.nextCursor ?? '');
  return page.links.map((link) => ({ ...link, label: dropdownLabel(link) }));
}

export const linkList = defineTrigger({
  key: 'link_list',
  noun: 'Link',
  display: {
    label: 'List Links',
    description: 'Lists the links, newest first (powers the Link dropdowns).',
    hidden: true,
  },
  operation: {
    type: 'polling',
    canPaginate: true,
    perform,
    sample: { ...linkSample, label: dropdownLabel(linkSample) },
    outputFields: [...linkOutputFields, { key: 'label', label: 'Dropdown Label' }],
  },
});
