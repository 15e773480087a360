/**
 * The walk behind exactly-once creates (docs/guarantees.md, "The create rule"): after a lost answer, which
 * links that could be this request's does the list show from the window's start on? The spec fixes no list
 * order, so the walk learns it from the createdAt values it reads: newest first, it stops at the first link
 * older than the window; oldest first (or no order proven), it reads to the end and remembers where the
 * window began so that a second look starts there.
 */
import { sameTarget } from '../link-index/same-link';
import type { CreateLinkInput, Link, LinkPage } from '../types';

export type PageReader = (cursor: string | undefined) => Promise<LinkPage>;

export type ListOrder = 'newest first' | 'oldest first' | 'unknown';

export interface WindowWalkQuery {
  wanted: CreateLinkInput;
  /**
   * The earliest createdAt this request's link can have, on the service's clock; asked after every page,
   * because every page teaches the clock a little more.
   */
  windowStart: () => number;
  /** Pages read at most. */
  maxPages: number;
  /** Where to start (a cursor remembered by an earlier walk of an oldest-first list); default the top. */
  from?: string;
}

export interface WindowWalk {
  /** Links that could be this request's link: same target, domain, slug and title, created in the window (or of unknown age). */
  candidates: Link[];
  /** The whole window was read. */
  complete: boolean;
  order: ListOrder;
  /** Oldest first: a cursor from which every link of the window (and any that shows up later) is read. */
  resumeFrom?: string;
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

export const createdAtOf = (link: Link): number => (typeof link.createdAt === 'string' ? Date.parse(link.createdAt) : Number.NaN);

/** The order the createdAt values read so far prove: one step down and none up is newest first, and so on. */
class OrderEvidence {
  private previous: number | undefined;
  private down = false;
  private up = false;

  see(createdAt: number): void {
    if (!Number.isFinite(createdAt)) return;
    if (this.previous !== undefined && createdAt < this.previous) this.down = true;
    if (this.previous !== undefined && createdAt > this.previous) this.up = true;
    this.previous = createdAt;
  }

  get order(): ListOrder {
    if (this.down && !this.up) return 'newest first';
    if (this.up && !this.down) return 'oldest first';
    return 'unknown';
  }
}

export async function walkCreateWindow(readPage: PageReader, query: WindowWalkQuery): Promise<WindowWalk> {
  const evidence = new OrderEvidence();
  const read: Array<{ cursor: string | undefined; links: Link[] }> = [];
  let cursor = query.from;
  for (let page = 0; page < query.maxPages; page++) {
    const { links, nextCursor } = await readPage(cursor);
    read.push({ cursor, links });
    for (const link of links) evidence.see(createdAtOf(link));
    // Newest first, a link older than the window ends it: everything after it is older still.
    const start = query.windowStart();
    const olderSeen = links.some((link) => createdAtOf(link) < start);
    if (olderSeen && evidence.order === 'newest first') return finish(read, query, evidence.order, true);
    if (!nextCursor || nextCursor === cursor) return finish(read, query, evidence.order, true);
    cursor = nextCursor;
  }
  return finish(read, query, evidence.order, false);
}

/** Candidates by the window's start as the clock knows it after the whole walk; where a later look may start. */
function finish(read: Array<{ cursor: string | undefined; links: Link[] }>, query: WindowWalkQuery, order: ListOrder, complete: boolean): WindowWalk {
  const start = query.windowStart();
  const inWindow = (link: Link) => !(createdAtOf(link) < start);
  const candidates = read.flatMap((page) => page.links.filter((link) => inWindow(link) && isOwnCreate(link, query.wanted)));
  const walk: WindowWalk = { candidates, complete, order };
  if (order === 'oldest first') {
    // The first page that reaches into the window: every page before it lies wholly before the window, so a
    // keyset cursor shows any link of the window (also one listed late) from that page on.
    const first = read.find((page) => page.links.some(inWindow));
    const resumeFrom = first ? first.cursor : read[read.length - 1]?.cursor;
    if (resumeFrom !== undefined) walk.resumeFrom = resumeFrom;
  }
  return walk;
}
