/**
 * One poll of a Link Clicks trigger (packages/core/README.md, "Link clicks"): reads the links in scope —
 * the list from the top down to the first link older than N days (one request per 100 links), or each
 * chosen link (one request each) — compares every link's `clicks` with the highest count handled before,
 * and hands out one event per milestone crossed ("milestones") or per link whose count grew
 * ("newClicks"). The counts are all it keeps, so a milestone never fires twice (also after a restart, a
 * count that fell and rose again, or a changed milestone list) and the state stays bounded.
 *
 * What a poll interval cannot see: clicks are compared poll to poll, so a link crossing two milestones
 * between polls gives both at once; a link created and clicked between two polls is counted from zero.
 */
import { MAX_PAGE_SIZE } from '../../basics/page-size';
import { daysBefore } from '../../basics/calendar-days';
import { InputError } from '../../errors';
import { timeOf, orderEvidence, lastTime } from '../new-links/list-order';
import { Trail } from '../new-links/poll-run';
import { checkPollLimit as checkLimit, PollRequests, type PollRequestLimits } from '../poll-requests';
import { checkStateOwner, type CurrentOwner } from '../state-owner';
import type { Link, LinkPage } from '../../types';
import { checkMilestones, checkMode, checkScope, type LinkClicksMode, type LinkClicksScope, type WatchedScope } from './options';
import { checkLinkClicksState, MAX_WATCHED_LINKS, type LinkClicksState, type LinkClicksWalk } from './state';
import { linkIdentity } from './identity';

export interface PollLinkClicksCallOptions extends PollLinkClicksOptions {
  /** As for pollNewLinks: no request after this many ms or in the rate limit's last sixth. Default 30 000. */
  timeLimitMs?: number;
}


/** Events handed out per poll at most by default; the rest come in the next polls (nothing is lost). */
export const DEFAULT_MAX_EVENTS = 1000;
/** Requests per poll by default: a full round over MAX_WATCHED_LINKS links (pages of 100). */
export const DEFAULT_MAX_CLICK_REQUESTS = 100;
/** A link the state does not know counts from zero when created after the last round began, less this (clocks differ). */
const NEW_LINK_SLACK_MS = 60_000;

export interface LinkClicksFetchers {
  fetchPage: (request: { limit: number; cursor?: string }) => Promise<LinkPage>;
  /** The link as it is now, or undefined when it no longer exists (deleted). */
  fetchLink: (id: string) => Promise<Link | undefined>;
}

export interface PollLinkClicksOptions {
  mode: LinkClicksMode;
  /** Click counts that fire an event once per link ("milestones" mode), e.g. [100, 1000]. */
  milestones?: readonly number[];
  scope: LinkClicksScope;
  /** Events handed out per poll at most; default 1000 (Zapier: 100). The rest follow in the next polls. */
  maxEvents?: number;
  /** Requests per poll at most; default 100. A longer walk goes on at the next poll. */
  maxRequests?: number;
}

export interface PollLinkClicksInternals {
  shouldStop?: () => boolean;
  isOutOfBudget?: (error: unknown) => boolean;
  /** The service's clock (epoch ms): "the last N days" and "created after the last round" are its times. */
  now?: () => number;
  owner?: CurrentOwner;
}

export interface LinkClickEvent {
  /**
   * Unique per event, for hosts that deduplicate: `${identity}:m${milestone}` or `${identity}:c${clicks}`,
   * the identity being the link's id and creation time (identity.ts): a link recreated under a reused id
   * fires its own events.
   */
  id: string;
  /** The full link as the list (or GET /links/{id}) gave it. */
  link: Link;
  /** The highest count handled before (0 for a link created since the last round). */
  clicksBefore: number;
  clicks: number;
  newClicks: number;
  /** "milestones" mode: the milestone this event is for. */
  milestone?: number;
}

export interface PollLinkClicksResult {
  events: LinkClickEvent[];
  state: LinkClicksState;
  /** True when this poll ended a round over the whole scope (false: the walk goes on at the next poll). */
  complete: boolean;
  /** What the host should log. */
  notices: string[];
  /** Requests this poll sent (GET /me not counted). */
  requests: number;
  /** Links in scope read so far in the round (all of them when `complete`). */
  linksInScope: number;
}

interface Seen {
  link: Link;
  /** The link's identity (identity.ts), not its bare id. */
  id: string;
  before: number;
  clicks: number;
}

function readClicks(link: Link): number | undefined {
  const clicks = (link as { clicks?: unknown }).clicks;
  return typeof clicks === 'number' && Number.isInteger(clicks) && clicks >= 0 ? clicks : undefined;
}

export async function pollLinkClicksWith(
  fetchers: LinkClicksFetchers,
  stored: LinkClicksState | undefined,
  options: PollLinkClicksOptions & PollLinkClicksInternals,
): Promise<PollLinkClicksResult> {
  if (typeof options !== 'object' || options === null) throw new InputError('options', 'pollLinkClicks needs options with mode and scope.');
  const mode = checkMode(options.mode);
  const milestones = mode === 'milestones' ? checkMilestones(options.milestones) : [];
  const scope = checkScope(options.scope);
  const maxEvents = checkLimit(options.maxEvents, 'maxEvents', 1_000_000, DEFAULT_MAX_EVENTS);
  const limits: PollRequestLimits = { maxRequests: checkLimit(options.maxRequests, 'maxRequests', 100_000, DEFAULT_MAX_CLICK_REQUESTS) };
  if (options.shouldStop) limits.shouldStop = options.shouldStop;
  if (options.isOutOfBudget) limits.isOutOfBudget = options.isOutOfBudget;
  const now = options.now ?? Date.now;
  const notices: string[] = [];
  let state = checkLinkClicksState(stored);

  let owner = state?.owner;
  if (options.owner) {
    const check = await checkStateOwner(state?.owner, options.owner);
    owner = check.owner;
    if (check.verdict === 'other' && state !== undefined) {
      notices.push(
        'The stored click counts belong to another account or service (the credential changed), so the trigger starts over: this account\'s counts are taken as they are now and only clicks from here on fire events.',
      );
      state = undefined;
    }
  }

  const links: LinkClicksState['links'] = { ...(state?.links ?? {}) };
  let round = state?.round ?? 0;
  const knownBefore = state?.knownBefore === undefined ? undefined : Date.parse(state.knownBefore);
  let walk: LinkClicksWalk | undefined = state?.walk;
  if (walk !== undefined && walk.scope !== scope.key) {
    notices.push('The scope changed while a round over the links was going on: a new round starts from the top.');
    walk = undefined;
  }
  if (walk === undefined) {
    round++;
    walk = { scope: scope.key, startedAt: new Date(now()).toISOString(), seen: 0 };
  }

  const requests = new PollRequests(limits);
  const seen: Seen[] = [];
  let full = false;
  const take = (link: Link): void => {
    const id = String(link.id);
    const clicks = readClicks(link);
    if (clicks === undefined) {
      notices.push(`Link ${id.slice(0, 40)} came without a readable click count, so it was left out of this poll.`);
      return;
    }
    const key = linkIdentity(link);
    // A state written before counts were keyed by identity holds the bare id: taken over once, under the
    // identity (a link recreated under its id in that very poll is the one case this reads as the old one).
    const legacy = key !== id && links[key] === undefined ? links[id] : undefined;
    if (legacy !== undefined) delete links[id];
    const entry = links[key] ?? legacy;
    let before: number;
    if (entry !== undefined) before = entry[0];
    else {
      // Unknown: a link created since the last round began counts from zero; any other (the first round,
      // a link that came into the scope, one without a readable date) is taken as it is now.
      const t = timeOf(link);
      const isNew = knownBefore !== undefined && t !== undefined && t >= knownBefore - NEW_LINK_SLACK_MS;
      before = isNew ? 0 : clicks;
    }
    seen.push({ link, id: key, before, clicks });
    walk!.seen++;
    if (scope.kind === 'recent' && walk!.seen >= MAX_WATCHED_LINKS) full = true;
  };

  const complete = scope.kind === 'recent' ? await walkRecent(fetchers, requests, walk, scope, take, () => full, notices) : await walkChosen(fetchers, requests, walk, scope, take, notices);
  if (full) {
    notices.push(
      `More than ${MAX_WATCHED_LINKS.toLocaleString('en-US')} links are in scope: only the newest ${MAX_WATCHED_LINKS.toLocaleString('en-US')} are watched (fewer days in the scope, or chosen links, watch all of them).`,
    );
  }

  const { events, handled, resumeAfter } = eventsOf(seen, mode, milestones, maxEvents, state?.resumeAfter);
  for (const item of seen) links[item.id] = [handled.get(item.id) ?? item.before, round];

  const next: LinkClicksState = { version: 1, kind: 'link-clicks', round, links };
  if (owner) next.owner = owner;
  if (complete) {
    // Links not seen in this round were deleted or left the scope: forgotten, so the state stays bounded.
    for (const [id, entry] of Object.entries(links)) if (entry[1] !== round) delete links[id];
    next.knownBefore = walk.startedAt;
  } else {
    next.walk = walk;
    if (state?.knownBefore !== undefined) next.knownBefore = state.knownBefore;
  }
  if (resumeAfter !== undefined) next.resumeAfter = resumeAfter;
  return { events, state: next, complete, notices, requests: requests.count, linksInScope: walk.seen };
}

/**
 * The list from the walk's cursor (the top for a new round) down to the first link created before the
 * window: true when the round is over (that link, the list's end, or the watched maximum was reached).
 */
async function walkRecent(
  fetchers: LinkClicksFetchers,
  requests: PollRequests,
  walk: LinkClicksWalk,
  scope: WatchedScope,
  take: (link: Link) => void,
  full: () => boolean,
  notices: string[],
): Promise<boolean> {
  const cutoff = daysBefore(Date.parse(walk.startedAt), scope.days!);
  const trail = new Trail();
  let cursor = walk.cursor;
  let fromState = cursor !== undefined;
  let before: number | undefined;
  for (;;) {
    const request: { limit: number; cursor?: string } = { limit: MAX_PAGE_SIZE };
    if (cursor !== undefined) request.cursor = cursor;
    const answer = await requests.send(() => fetchers.fetchPage(request), fromState);
    if (answer.kind === 'stop') {
      if (cursor === undefined) delete walk.cursor;
      else walk.cursor = cursor;
      return false;
    }
    if (answer.kind === 'refused') {
      notices.push(`The service refused the saved place in the list (${answer.reason}), so this round reads the list again from the top.`);
      cursor = undefined;
      fromState = false;
      continue;
    }
    fromState = false;
    const page = answer.value;
    trail.at(cursor);
    // A list served oldest first puts the old links first: the walk cannot stop at the first of them.
    if (orderEvidence(page.links) === 'rising' || orderEvidence(page.links, before) === 'rising') walk.oldestFirst = true;
    before = lastTime(page.links, before);
    for (const link of trail.fresh(page.links)) {
      const t = timeOf(link);
      if (t !== undefined && t < cutoff) {
        if (walk.oldestFirst) continue;
        return true;
      }
      take(link);
      if (full()) return true;
    }
    if (!page.nextCursor) return true;
    trail.follow(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Each chosen link from the walk's position on: true when all were read. */
async function walkChosen(
  fetchers: LinkClicksFetchers,
  requests: PollRequests,
  walk: LinkClicksWalk,
  scope: WatchedScope,
  take: (link: Link) => void,
  notices: string[],
): Promise<boolean> {
  const ids = scope.ids!;
  let position = walk.position ?? 0;
  while (position < ids.length) {
    const id = ids[position]!;
    const answer = await requests.send(() => fetchers.fetchLink(id));
    if (answer.kind !== 'answer') {
      walk.position = position;
      return false;
    }
    if (answer.value === undefined) notices.push(`The chosen link ${id.slice(0, 40)} no longer exists (deleted), so it is not watched; remove it from the trigger's links.`);
    else take(answer.value);
    position++;
  }
  delete walk.position;
  return true;
}

/**
 * The events of the links read, at most `maxEvents`, starting after the link the last cut-short poll
 * ended at (so that busy links at the top cannot keep the others waiting). `handled` is the count each
 * link is handled up to: its count when all its events went out, else the last milestone handed out.
 */
function eventsOf(
  seen: readonly Seen[],
  mode: LinkClicksMode,
  milestones: readonly number[],
  maxEvents: number,
  resumeFrom: string | undefined,
): { events: LinkClickEvent[]; handled: Map<string, number>; resumeAfter: string | undefined } {
  const handled = new Map<string, number>();
  const pending: Array<{ item: Seen; due: number[] }> = [];
  for (const item of seen) {
    if (item.clicks <= item.before) continue;
    const due = mode === 'milestones' ? milestones.filter((m) => m > item.before && m <= item.clicks) : [item.clicks];
    if (due.length === 0) handled.set(item.id, item.clicks);
    else pending.push({ item, due });
  }
  const start = resumeFrom === undefined ? -1 : seen.findIndex((item) => item.id === resumeFrom);
  if (start >= 0) {
    const position = new Map(seen.map((item, index) => [item.id, index]));
    const after = pending.filter(({ item }) => position.get(item.id)! > start);
    const upTo = pending.filter(({ item }) => position.get(item.id)! <= start);
    pending.splice(0, pending.length, ...after, ...upTo);
  }
  const events: LinkClickEvent[] = [];
  let lastFull: string | undefined;
  let cut = false;
  for (const { item, due } of pending) {
    const room = maxEvents - events.length;
    if (room <= 0) {
      cut = true;
      break;
    }
    const given = due.slice(0, room);
    for (const count of given) {
      const event: LinkClickEvent = {
        id: mode === 'milestones' ? `${item.id}:m${count}` : `${item.id}:c${item.clicks}`,
        link: item.link,
        clicksBefore: item.before,
        clicks: item.clicks,
        newClicks: item.clicks - item.before,
      };
      if (mode === 'milestones') event.milestone = count;
      events.push(event);
    }
    if (given.length < due.length) {
      handled.set(item.id, given[given.length - 1]!);
      cut = true;
      break;
    }
    handled.set(item.id, item.clicks);
    lastFull = item.id;
  }
  return { events, handled, resumeAfter: cut ? lastFull : undefined };
}
