/** Matching rules of findLinks / findOrCreateLink: the one meaning of "the same link" (same-link.ts). */
import { isSameLink, sameTarget } from './same-link';
import type { FindLinksOptions, Link } from './types';

/** Whether two target URLs are the same target (same-link.ts). */
export function sameUrl(a: string, b: string): boolean {
  return sameTarget(a, b);
}

export function linkMatches(link: Link, find: Pick<FindLinksOptions, 'targetUrl' | 'slug' | 'domain'>): boolean {
  return isSameLink(link, find);
}
