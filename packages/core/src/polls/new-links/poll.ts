/**
 * One poll of the new-links algorithm: checks whose the stored state is, picks the walk for the list's
 * order (learned from createdAt, both orders work) and returns the links created since the last poll,
 * oldest → newest, at most `maxLinks` of them, with the state to store. Pure apart from `fetchPage` (and
 * `owner.whoAmI`): the same pages give the same answer. Every way the service can surprise it either
 * works or ends in an error that says what the service did; none makes it skip or repeat a link.
 */
import { MAX_PAGE_SIZE } from '../../basics/page-size';
import { InputError, UnexpectedResponseError } from '../../errors';
import { checkPollLimit as checkLimit } from '../poll-requests';
import { checkStateOwner, type CurrentOwner, type StateOwner } from '../state-owner';
import type { Link } from '../../types';
import { firstRun, type FirstRunPlace } from './first-run';
import { readTime, type ListOrder } from './list-order';
import { pollNewestFirst } from './newest-first';
import { pollOldestFirst } from './oldest-first';
import { PollRun, type LinkPageFetcher, type PollLimits } from './poll-run';
import { checkNewLinksState, type NewLinksCatchUp, type NewLinksState } from './state';

export interface PollNewLinksCallOptions extends PollNewLinksOptions {
  /**
   * The poll sends no request after this many ms, and none while the rate limit's window is down to its
   * last sixth: it ends there and keeps what it learned for the next poll. Default 30 000. (The client's
   * callTimeoutMs stays the hard limit of the whole call.)
   */
  timeLimitMs?: number;
}

/** Enough for a backlog of 20 000 links to be walked in one poll when the service answers quickly. */
export const DEFAULT_MAX_PAGES = 300;
export const DEFAULT_MAX_LINKS = 1000;

export interface PollNewLinksOptions {
  /** Links per page, 1 to 100; default 100. */
  pageSize?: number;
  /** List requests per poll at most; default 300. A longer walk goes on at the next poll. */
  maxPages?: number;
  /** Links handed out per poll at most; default 1000. The rest follow in the next polls, oldest first. */
  maxLinks?: number;
  /**
   * Only for a trigger's first poll: also hand out the links created at or after this instant (ISO 8601
   * with a time zone), oldest first, instead of starting with new links only.
   */
  since?: string;
}

export interface PollNewLinksInternals {
  /** See PollLimits. */
  shouldStop?: () => boolean;
  isOutOfBudget?: (error: unknown) => boolean;
  /** The service's clock (epoch ms), for the first poll of a list served oldest first; default Date.now. */
  now?: () => number;
  /** Binds the state to its account; without it the state records no owner. */
  owner?: CurrentOwner;
}

export interface PollNewLinksResult {
  /** Oldest → newest. */
  links: Link[];
  state: NewLinksState;
  /** True when no backlog is left in the state (no catch-up and no first run still going on). */
  complete: boolean;
  /** What the host should log: a state started over, a refused cursor that was worked around. */
  notices: string[];
}

/** `since` as epoch ms; a date without a time zone would be read in whatever zone the host runs in. */
function readSince(since: unknown): number | undefined {
  if (since === undefined) return undefined;
  const hasZone = typeof since === 'string' && /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(since.trim());
  const ms = hasZone ? readTime(since.trim()) : undefined;
  if (ms === undefined) {
    throw new InputError('since', 'since must be a date and time with a time zone, for example 2026-03-01T00:00:00Z.');
  }
  return ms;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function orderChangesError(): UnexpectedResponseError {
  return new UnexpectedResponseError({
    title: 'The list order changes',
    message:
      "The service's list of links changes its order between pages (createdAt falls on some and rises on others), so the trigger cannot tell which links are new; it stopped without handing anything out.",
  });
}

export async function pollNewLinksWith(
  fetchPage: LinkPageFetcher,
  storedState: NewLinksState | undefined,
  options: PollNewLinksOptions & PollNewLinksInternals = {},
): Promise<PollNewLinksResult> {
  const limits: PollLimits = {
    pageSize: checkLimit(options.pageSize, 'pageSize', MAX_PAGE_SIZE, MAX_PAGE_SIZE),
    maxPages: checkLimit(options.maxPages, 'maxPages', 100_000, DEFAULT_MAX_PAGES),
    maxLinks: checkLimit(options.maxLinks, 'maxLinks', 1_000_000, DEFAULT_MAX_LINKS),
  };
  if (options.shouldStop) limits.shouldStop = options.shouldStop;
  if (options.isOutOfBudget) limits.isOutOfBudget = options.isOutOfBudget;
  const since = readSince(options.since);
  let state = checkNewLinksState(storedState);

  const notices: string[] = [];
  let owner: StateOwner | undefined = state?.owner;
  if (options.owner) {
    const check = await checkStateOwner(state?.owner, options.owner);
    owner = check.owner;
    if (check.verdict === 'other' && state !== undefined) {
      notices.push(
        'The stored state belongs to another account or service (the credential changed), so the trigger starts over from the newest link of this account; the other account is not replayed.',
      );
      state = undefined;
    }
  }

  const run = new PollRun(fetchPage, limits, state?.mark ?? null, state?.undated);
  run.notices.push(...notices);
  let order: ListOrder | undefined = state?.order;
  let catchUp: NewLinksCatchUp | undefined = state?.catchUp;
  let tailCursor = state?.tailCursor;
  const storedRun = state?.firstRun;
  let firstRunPlace: FirstRunPlace | undefined;
  if (storedRun) {
    firstRunPlace = {};
    if (storedRun.cursor !== undefined) firstRunPlace.cursor = storedRun.cursor;
    if (storedRun.startedAt !== undefined) firstRunPlace.startedAt = Date.parse(storedRun.startedAt);
    if (storedRun.walkedTo !== undefined) firstRunPlace.walkedTo = Date.parse(storedRun.walkedTo);
    if (storedRun.above) firstRunPlace.above = true;
  }
  let probe = state?.probe;
  let settling = state?.settling === true;
  let mode: 'first-run' | ListOrder;
  if (state === undefined && since !== undefined && notices.length === 0) {
    // Everything created at or after `since` counts as new: the mark sits one millisecond before it.
    run.mark = { createdAt: iso(since - 1), ids: [] };
    mode = 'newest-first';
  } else if (state === undefined || firstRunPlace !== undefined) {
    mode = 'first-run';
  } else {
    mode = order === 'oldest-first' ? 'oldest-first' : 'newest-first';
  }

  let complete = false;
  let flips = 0;
  const flipTo = (next: ListOrder): void => {
    if (++flips > 1) throw orderChangesError();
    order = next;
    mode = next;
    catchUp = undefined;
    tailCursor = undefined;
  };
  for (;;) {
    if (mode === 'first-run') {
      const outcome = await firstRun(run, firstRunPlace, options.now ?? Date.now);
      if (outcome.kind === 'flip') {
        // A list served oldest first shows its newest link only at its end: "new" then means created
        // since the first poll began, by the service's clock.
        run.mark = { createdAt: iso(outcome.startedAt), ids: [] };
        firstRunPlace = undefined;
        settling = true;
        flipTo('oldest-first');
        continue;
      }
      if (outcome.kind === 'paused') {
        firstRunPlace = { startedAt: outcome.startedAt };
        if (outcome.cursor !== undefined) firstRunPlace.cursor = outcome.cursor;
        if (outcome.walkedTo !== undefined) firstRunPlace.walkedTo = outcome.walkedTo;
        if (outcome.above) firstRunPlace.above = true;
        break;
      }
      firstRunPlace = undefined;
      if (outcome.falling) order = 'newest-first';
      complete = true;
      break;
    }
    if (mode === 'newest-first') {
      const outcome = await pollNewestFirst(run, catchUp, order, probe);
      probe = undefined;
      if (outcome.kind === 'flip') {
        flipTo('oldest-first');
        continue;
      }
      catchUp = outcome.catchUp;
      probe = outcome.probe;
      if (outcome.falling) order = 'newest-first';
      complete = outcome.complete;
      break;
    }
    const outcome = await pollOldestFirst(run, tailCursor, settling);
    if (outcome.kind === 'flip') {
      settling = false;
      flipTo('newest-first');
      continue;
    }
    if (outcome.complete) settling = false;
    tailCursor = outcome.tailCursor;
    if (outcome.rising) order = 'oldest-first';
    complete = outcome.complete;
    break;
  }

  const next: NewLinksState = { version: 2, mark: run.mark };
  if (owner) next.owner = owner;
  if (order) next.order = order;
  if (firstRunPlace !== undefined) {
    next.firstRun = {};
    if (firstRunPlace.cursor !== undefined) next.firstRun.cursor = firstRunPlace.cursor;
    if (firstRunPlace.startedAt !== undefined) next.firstRun.startedAt = iso(firstRunPlace.startedAt);
    if (firstRunPlace.walkedTo !== undefined) next.firstRun.walkedTo = iso(firstRunPlace.walkedTo);
    if (firstRunPlace.above) next.firstRun.above = true;
  }
  if (mode === 'newest-first' && catchUp) next.catchUp = catchUp;
  if (mode === 'newest-first' && probe !== undefined && next.order === undefined) next.probe = probe;
  if (mode === 'oldest-first' && tailCursor !== undefined) next.tailCursor = tailCursor;
  if (mode === 'oldest-first' && settling) next.settling = true;
  if (run.undated.size > 0) next.undated = [...run.undated];
  return { links: run.emitted, state: next, complete, notices: run.notices };
}
