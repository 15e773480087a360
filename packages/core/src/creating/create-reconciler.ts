/**
 * Exactly-once creates without idempotency keys (docs/guarantees.md, "A create is never doubled or falsely
 * failed"). The service has none, so when a create's outcome is unknown — a 5xx, a reset or timeout after the
 * request left, a 2xx whose body cannot be read — the client asks the account before doing anything else:
 * did my request store a link? The list is newest first, so the links created since the request was sent
 * sit at its top; a walk down to the first older link settles it, usually in one request.
 */
import { sameTarget } from '../link-index/same-link';
import type { CreateLinkInput, Link, LinkPage } from '../types';

export type PageReader = (cursor: string | undefined) => Promise<LinkPage>;

export interface OwnCreateQuery {
  /** The body that was sent (after the client's checks). */
  wanted: CreateLinkInput;
  /**
   * The earliest createdAt the request's link can have, on the service's clock. Asked after the first page
   * arrived, so that the clock reading of that very answer (its Date header) can be used.
   */
  windowStart: () => number;
  /** Ids this client already returned as created: never claimed twice. */
  claimed: ReadonlySet<string>;
  /** Pages read at most. */
  maxPages: number;
}

/** found: the link the request stored. Else complete: the whole window was read and holds none. */
export type OwnCreateAnswer = { found: Link } | { found: undefined; complete: boolean };

/**
 * Date has whole seconds, the request takes a moment, and the Date header may come from a gateway whose clock
 * is a little off the one that stamps createdAt: links from this much earlier count too. Too wide only
 * means reading a few more links; too narrow would mean a second create.
 */
const KNOWN_CLOCK_SLACK_MS = 60_000;
/** Without the service's clock, a machine clock may be off by minutes. */
const UNKNOWN_CLOCK_SLACK_MS = 10 * 60_000;

/**
 * The window's start from when the request left (`sentAt`, our clock) and the service's clock as read
 * last (its Date header, with our clock at that moment): the service's time then, less the time that has
 * passed since the request left. Only elapsed time on our clock counts, never its absolute value.
 */
export function createWindowStart(sentAt: number, serviceClock: { serviceMs: number; localMs: number } | undefined): number {
  if (serviceClock && serviceClock.localMs >= sentAt) return serviceClock.serviceMs - (serviceClock.localMs - sentAt) - KNOWN_CLOCK_SLACK_MS;
  return sentAt - UNKNOWN_CLOCK_SLACK_MS;
}

function domainOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value.toLowerCase() : null;
}

/** Whether `link` is what the request would have stored: same target, domain, and slug or title when sent. */
export function isOwnCreate(link: Link, wanted: CreateLinkInput): boolean {
  if (typeof link.targetUrl !== 'string' || !sameTarget(link.targetUrl, wanted.targetUrl)) return false;
  if (domainOf(link.domain) !== domainOf(wanted.domain)) return false;
  if (wanted.slug !== undefined && link.slug !== wanted.slug) return false;
  if (wanted.title !== undefined && link.title !== wanted.title) return false;
  return true;
}

export async function findOwnCreate(readPage: PageReader, query: OwnCreateQuery): Promise<OwnCreateAnswer> {
  let cursor: string | undefined;
  let windowStart: number | undefined;
  for (let page = 0; page < query.maxPages; page++) {
    const { links, nextCursor } = await readPage(cursor);
    windowStart ??= query.windowStart();
    for (const link of links) {
      const createdAt = typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN;
      // The first link older than the request: everything below it is older too (newest first).
      if (createdAt < windowStart) return { found: undefined, complete: true };
      if (!query.claimed.has(String(link.id)) && isOwnCreate(link, query.wanted)) return { found: link };
    }
    if (!nextCursor || nextCursor === cursor) return { found: undefined, complete: true };
    cursor = nextCursor;
  }
  return { found: undefined, complete: false };
}
