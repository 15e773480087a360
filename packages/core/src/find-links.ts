/** Matching rules of findLinks / findOrCreateLink. */
import type { FindLinksOptions, Link } from './types';

/** WHATWG-normalised form, so https://a.example and https://a.example/ are the same target. */
export function sameUrl(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

export function linkMatches(link: Link, find: Pick<FindLinksOptions, 'targetUrl' | 'slug' | 'domain'>): boolean {
  if (find.targetUrl !== undefined && !(typeof link.targetUrl === 'string' && sameUrl(link.targetUrl, find.targetUrl))) return false;
  if (find.slug !== undefined && link.slug !== find.slug) return false;
  if (find.domain !== undefined) {
    const linkDomain = typeof link.domain === 'string' && link.domain !== '' ? link.domain.toLowerCase() : null;
    const wanted = find.domain === null ? null : find.domain.toLowerCase();
    if (linkDomain !== wanted) return false;
  }
  return true;
}
