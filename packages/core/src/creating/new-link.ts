/**
 * The answer to a creation shows nine fields; a full link has twelve. The spec fixes the other three for a
 * new link (section 3: blocked false, hasPassword false, expiresAt null, unless set otherwise), so hosts can
 * hand out the same shape after Create as after Get without asking the service again.
 */
import { checkTimestamp } from '../forms/input-checks';
import type { CreateLinkInput, Link, LinkCreated } from '../types';

function isFullLink(link: LinkCreated | Link): link is Link {
  return 'blocked' in link && 'hasPassword' in link && 'expiresAt' in link;
}

/**
 * The twelve-field link a creation made, in the order of GET /links/{id}. `sent` is what was sent:
 * a password makes hasPassword true, an expiry is the one sent (normalised to UTC as the service stores it).
 * A full link (a create whose answer was lost and that was found in the account) is returned as it is.
 */
export function completeCreatedLink(created: LinkCreated | Link, sent: CreateLinkInput): Link {
  if (isFullLink(created)) return created;
  const { id, slug, shortUrl, targetUrl, title, domain, active, clicks, createdAt, ...more } = created;
  const expiresAt = sent.expiresAt === undefined || sent.expiresAt === null ? null : checkTimestamp(sent.expiresAt, 'expiresAt');
  const hasPassword = typeof sent.password === 'string' && sent.password !== '';
  // Fields a later version of the service might add stay, after the documented ones.
  return { id, slug, shortUrl, targetUrl, title, domain, active, blocked: false, hasPassword, clicks, expiresAt, createdAt, ...more };
}
