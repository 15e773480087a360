/**
 * "Return All": every link of the account, newest first, within one budget for the whole walk — a number of
 * links and a time limit — instead of one per page. A walk that reaches either limit ends there with what it
 * read and says so (`stoppedEarly`: what stopped it, in words); a walk the service leads in a circle ends
 * with PagingCircleError (walk-guard.ts). The links are held in memory, so the item limit also bounds that.
 */
import { MAX_PAGE_SIZE } from '../basics/page-size';
import { DeadlineError, InputError, RateLimitError } from '../errors';
import type { CallBudget } from '../http/call-budget';
import type { Link, LinkPage, ListLinksOptions } from '../types';
import { WalkGuard } from './walk-guard';

/** Links one Return All hands out at most, unless told otherwise. */
export const DEFAULT_READ_ALL_MAX_LINKS = 50_000;
/** Time one Return All may take, unless told otherwise (ms). */
export const DEFAULT_READ_ALL_TIME_LIMIT_MS = 5 * 60_000;

export interface ReadAllLinksOptions {
  /** Links at most (default 50 000). */
  maxLinks?: number;
  /** The whole walk's time limit, ms (default 5 minutes; the client's callTimeoutMs still applies). */
  timeLimitMs?: number;
  /** Links per page, 1 to 100 (default 100). */
  pageSize?: number;
}

export interface ReadAllLinksResult {
  /** Newest first, each link once. */
  links: Link[];
  /** True when the list was read to its end. */
  complete: boolean;
  /** When `complete` is false: what stopped the walk, in words for the user. */
  stoppedEarly?: string;
  /** Pages read. */
  pages: number;
}

function checkLimit(value: unknown, field: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InputError(field, `${field} must be a whole number from 1 to ${max}.`);
  }
  return value;
}

/** The limits of one Return All, checked; the time limit is the budget's own. */
export function readAllLimits(options: ReadAllLinksOptions): { maxLinks: number; timeLimitMs: number; pageSize: number } {
  return {
    maxLinks: checkLimit(options.maxLinks, 'maxLinks', 10_000_000) ?? DEFAULT_READ_ALL_MAX_LINKS,
    timeLimitMs: checkLimit(options.timeLimitMs, 'timeLimitMs', 24 * 3600_000) ?? DEFAULT_READ_ALL_TIME_LIMIT_MS,
    pageSize: checkLimit(options.pageSize, 'pageSize', MAX_PAGE_SIZE) ?? MAX_PAGE_SIZE,
  };
}

/**
 * Reads pages until the end, the item limit, or the budget's end. `readPage` sends within `budget` (the
 * whole walk's budget), so a wait for the rate limit counts against the same time.
 */
export async function readAllLinks(
  readPage: (options: ListLinksOptions, budget: CallBudget) => Promise<LinkPage>,
  options: ReadAllLinksOptions,
  budget: CallBudget,
): Promise<ReadAllLinksResult> {
  const { maxLinks, pageSize } = readAllLimits(options);
  const guard = new WalkGuard('the list');
  const links: Link[] = [];
  let cursor: string | undefined;
  const stop = (why: string): ReadAllLinksResult => ({ links, complete: false, stoppedEarly: why, pages: guard.pages });
  for (;;) {
    let page: LinkPage;
    try {
      page = await readPage(cursor === undefined ? { limit: pageSize } : { limit: pageSize, cursor }, budget);
    } catch (error) {
      // Out of time or of the rate limit's patience: what was read is good; say why the rest is missing.
      if (error instanceof DeadlineError && guard.pages > 0) return stop(`the time limit of ${Math.round(budget.limitMs / 1000)} s for reading all links was reached after ${links.length.toLocaleString('en-US')} links`);
      if (error instanceof RateLimitError && guard.pages > 0) return stop(`the service's rate limit asked for a longer wait than allowed after ${links.length.toLocaleString('en-US')} links`);
      throw error;
    }
    const next = page.nextCursor ?? undefined;
    links.push(...guard.page(cursor, page.links, next));
    if (links.length >= maxLinks) {
      links.length = maxLinks;
      return next === undefined ? { links, complete: true, pages: guard.pages } : stop(`the limit of ${maxLinks.toLocaleString('en-US')} links for reading all links was reached; more links follow`);
    }
    if (next === undefined) return { links, complete: true, pages: guard.pages };
    cursor = next;
  }
}
