/**
 * The one meaning of "the same link" (docs/api-contract.md, "The same link"), used by find, find-or-create,
 * the create reconciler and the link index in both hosts:
 * - the target URL as it will be stored, i.e. after the step's UTM fields were applied (the hosts apply them
 *   with buildCampaignUrl before asking);
 * - compared after normalisation: scheme and host in lower case, the default port dropped, an empty path and
 *   "/" alike (WHATWG URL), percent-escapes normalised as RFC 3986 §6.2.2.2 allows and no further — an
 *   escape of an unreserved character (letters, digits, "-", ".", "_", "~") is read (%41 is "A"), every
 *   other escape stays an escape with its hex in upper case (%2f is %2F) — so /a%2Fb is not /a/b and
 *   q=a%26b is not q=a&b; and query parameters in any order — only repeats of one name keep their order
 *   (a=1&a=2 is not a=2&a=1). The path, the values and the fragment count as written otherwise;
 * - the same domain (the default domain when none is given) and, when a slug is given, the same slug.
 */
import type { Link } from '../types';

/** RFC 3986 §2.3: the characters whose escapes mean nothing else. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * RFC 3986 §6.2.2.1–2: percent-escapes of unreserved characters decoded, all others kept with upper-case
 * hex. Reserved characters keep their meaning: "%2F" stays a character of a segment, not a "/".
 */
export function normalizeEscapes(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * The comparable form of a target URL, or undefined when it is no URL. Keys compare equal exactly when the
 * URLs are the same target by the rule above.
 */
export function targetKey(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const pairs = parsed.search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = normalizeEscapes(at < 0 ? pair : pair.slice(0, at));
      const value = at < 0 ? '' : normalizeEscapes(pair.slice(at + 1));
      return [name, value] as const;
    });
  // Stable sort: parameters of different names in any order, repeats of a name in their own order.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const query = pairs.map(([name, value]) => `${name}=${value}`).join('&');
  return `${parsed.protocol}//${parsed.host}${normalizeEscapes(parsed.pathname)}${query ? `?${query}` : ''}${normalizeEscapes(parsed.hash)}`;
}

/** Whether two target URLs are the same target. */
export function sameTarget(a: string, b: string): boolean {
  if (a === b) return true;
  const keyA = targetKey(a);
  return keyA !== undefined && keyA === targetKey(b);
}

/** A link's domain as compared: lower-case hostname, or null for the default domain. */
export function domainKey(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null;
}

export interface SameLinkCriteria {
  targetUrl?: string;
  slug?: string;
  /** Hostname of a custom domain; null = the default domain; undefined = any domain. */
  domain?: string | null;
}

/** Whether `link` answers the criteria (each given criterion must hold). */
export function isSameLink(link: Pick<Link, 'targetUrl' | 'slug' | 'domain'>, criteria: SameLinkCriteria): boolean {
  if (criteria.targetUrl !== undefined && !(typeof link.targetUrl === 'string' && sameTarget(link.targetUrl, criteria.targetUrl))) return false;
  if (criteria.slug !== undefined && link.slug !== criteria.slug) return false;
  if (criteria.domain !== undefined && domainKey(link.domain) !== domainKey(criteria.domain)) return false;
  return true;
}

export type UnusableReason = 'paused' | 'blocked' | 'expired';

/**
 * Why a link cannot be handed out for reuse by Find or Create (it does not redirect), or undefined when it
 * can. `now` is epoch ms. Fields a record lacks (a creation answer has no blocked/expiresAt) count as fine.
 */
export function unusableReason(link: Partial<Pick<Link, 'active' | 'blocked' | 'expiresAt'>>, now: number): UnusableReason | undefined {
  if (link.blocked === true) return 'blocked';
  if (link.active === false) return 'paused';
  if (typeof link.expiresAt === 'string' && link.expiresAt !== '') {
    const at = Date.parse(link.expiresAt);
    if (Number.isFinite(at) && at <= now) return 'expired';
  }
  return undefined;
}

/**
 * Which of several same links is *the* link (docs/guarantees.md, "Many callers"): the earliest created, and
 * of two created in the same millisecond the lower id. Every caller computes it the same way from what the
 * list shows, so callers that made twins at the same moment settle on one, and Find and Find or Create hand
 * out that one. Ids compare as numbers when both are numeric text (shorter is lower), else as text.
 */
export function compareEarliestFirst(a: { at: number; id: string }, b: { at: number; id: string }): number {
  if (a.at !== b.at) return a.at - b.at;
  const numeric = /^[0-9]+$/;
  if (numeric.test(a.id) && numeric.test(b.id) && a.id.length !== b.id.length) return a.id.length - b.id.length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The same order for records: createdAt (unreadable: latest), then id. */
export function compareLinksEarliestFirst(a: Pick<Link, 'createdAt' | 'id'>, b: Pick<Link, 'createdAt' | 'id'>): number {
  const at = (link: Pick<Link, 'createdAt'>): number => {
    const ms = typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN;
    return Number.isFinite(ms) ? ms : Number.MAX_SAFE_INTEGER;
  };
  return compareEarliestFirst({ at: at(a), id: String(a.id) }, { at: at(b), id: String(b.id) });
}
