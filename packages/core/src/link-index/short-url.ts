/**
 * Matching a link by its short URL (findLinkByShortUrl). The service has no lookup by short URL, so the
 * client scans for the slug; the document's domain rules then decide which link the URL names: a link on
 * the default domain has `domain` null, one on a custom domain has that hostname (components.schemas.Link).
 */
import { InputError } from '../errors';
import { checkHttpUrl } from '../forms/input-checks';
import type { Link } from '../types';

export interface ShortUrlTarget {
  /** The last path segment: a slug never contains '/'. */
  slug: string;
  /** Lower-case hostname without port, as `domain` holds it for custom domains. */
  hostname: string;
  /** The normalised URL (see shortUrlKey). */
  key: string;
}

/** decodeURIComponent, or the text as it is when it holds a broken escape. */
export function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The short URL reduced to what identifies a link: host (lower case, default port dropped) and path
 * (decoded, without trailing slash). Scheme, query and fragment name no other link: http://sho.rt/a and
 * HTTPS://SHO.RT/a/ are the same short link. undefined when the text is no http(s) URL.
 */
export function shortUrlKey(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const path = decode(url.pathname).replace(/\/+$/, '');
  return `${url.host.toLowerCase()}${path}`;
}

/** Reads a short URL given by a caller; InputError naming `shortUrl` when it cannot name a link. */
export function readShortUrl(value: unknown): ShortUrlTarget {
  const text = checkHttpUrl(value, 'shortUrl');
  const url = new URL(text);
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const slug = decode(segments[segments.length - 1] ?? '');
  if (slug === '') {
    throw new InputError('shortUrl', `shortUrl must end with the slug of the link, e.g. https://sho.rt/spring-sale; got "${text}".`);
  }
  return { slug, hostname: url.hostname.toLowerCase(), key: shortUrlKey(text)! };
}

/** Whether the link is the one the short URL names (slug, domain rule, then the whole normalised URL). */
export function isLinkAtShortUrl(link: Link, target: ShortUrlTarget): boolean {
  if (link.slug !== target.slug) return false;
  const domain = typeof link.domain === 'string' && link.domain !== '' ? link.domain.toLowerCase() : null;
  // A custom-domain link lives only on its own host; a default-domain link (null) on the service's host.
  if (domain !== null && domain !== target.hostname) return false;
  return typeof link.shortUrl === 'string' && shortUrlKey(link.shortUrl) === target.key;
}
