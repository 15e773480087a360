/**
 * One poll of the Clicks Per Day trigger. Once a UTC day has closed, it reads the links in scope (a walk
 * over the account's list, one request per 100 links; chosen links one request each) and each link's
 * statistics (one request per link), and delivers one record per link and day — or per campaign and day —
 * for every closed day not delivered before, oldest first. The first poll starts from yesterday; days
 * missed while the trigger was off are delivered on its return, at most MAX_CATCH_UP_DAYS of them.
 *
 * Exactly once per (link, day): records are handed out only when the round over the whole scope is read,
 * together with the state that moves `doneThrough` past their days, so a poll that ends early (its request
 * limit, a failure) hands out nothing and its successor goes on from the kept progress. Polls on a day
 * already delivered send no request at all.
 */
import { MAX_PAGE_SIZE } from '../../../basics/page-size';
import { InputError, NotFoundError } from '../../../errors';
import { campaignTagsOf } from '../../reports/campaign-of-link';
import { isSelected } from '../../reports/link-selection';
import { NO_CAMPAIGN } from '../../reports/report-columns';
import { dayNumber, dayOfNumber, daysBefore, lastClosedDay } from '../../../basics/calendar-days';
import { daysOf } from '../../reports/report-days';
import { clicksPerDay } from '../../reports/report-rows';
import type { ShortLinkClient } from '../../../client';
import type { Link, LinkPage, LinkStats } from '../../../types';
import { checkPollLimit, PollRequests } from '../../../polls/poll-requests';
import { checkStateOwner, type CurrentOwner } from '../../../polls/state-owner';
import { checkDailyScope, checkUnit, type CheckedScope, type ClicksPerDayScope, type ClicksPerDayUnit } from './options';
import { checkClicksPerDayState, MAX_CATCH_UP_DAYS, MAX_DAILY_LINKS, type ClicksPerDayRound, type ClicksPerDayState, type KeptLink } from './state';

/** Requests per poll by default; a larger round goes on at the next polls. */
export const DEFAULT_DAILY_MAX_REQUESTS = 100;

export interface ClicksPerDayFetchers {
  fetchPage: (request: { limit: number; cursor?: string }) => Promise<LinkPage>;
  /** The link, or undefined when it no longer exists. */
  fetchLink: (id: string) => Promise<Link | undefined>;
  /** The link's statistics, or undefined when it no longer exists. */
  fetchStats: (id: string) => Promise<LinkStats | undefined>;
}

export interface PollClicksPerDayOptions {
  scope: ClicksPerDayScope;
  /** One record per link and day (default) or per campaign and day. */
  per?: ClicksPerDayUnit;
  /** Also deliver days without clicks (0); default false. */
  includeZeroDays?: boolean;
  /** Requests per poll at most; default 100. */
  maxRequests?: number;
  /**
   * Records per poll at most (Zapier: 100), whole days only: the later days of a read round come in the
   * next polls without a request. A single day with more records comes whole. Default: no limit.
   */
  maxRecords?: number;
  /** Epoch ms of the service's clock; default Date.now. */
  now?: () => number;
  owner?: CurrentOwner;
  shouldStop?: () => boolean;
  isOutOfBudget?: (error: unknown) => boolean;
}

/** One delivered record: a link's (or a campaign's) clicks on one closed day. */
export interface DailyClicksRecord {
  /** Unique per (link, day) or (campaign, day), for hosts that deduplicate. */
  id: string;
  date: string;
  clicks: number;
  /** Per link: the link's columns as in the Campaign Report. */
  shortUrl?: string;
  title?: string;
  targetUrl?: string;
  linkId?: string;
  campaign: string;
  source?: string;
  medium?: string;
  /** Per campaign: how many watched links it has. */
  links?: number;
}

export interface PollClicksPerDayResult {
  records: DailyClicksRecord[];
  state: ClicksPerDayState;
  /** True when nothing of a closed day is left to read (false: the round goes on at the next poll). */
  complete: boolean;
  notices: string[];
  requests: number;
}

function keep(link: Link): KeptLink {
  return [String(link.id), String(link.shortUrl ?? ''), String(link.title ?? ''), String(link.targetUrl ?? '')];
}

export async function pollClicksPerDayWith(fetchers: ClicksPerDayFetchers, stored: ClicksPerDayState | undefined, options: PollClicksPerDayOptions): Promise<PollClicksPerDayResult> {
  if (typeof options !== 'object' || options === null) throw new InputError('options', 'pollClicksPerDay needs options with a scope.');
  const scope = checkDailyScope(options.scope);
  const per = checkUnit(options.per);
  const includeZero = options.includeZeroDays === true;
  const maxRecords = checkPollLimit(options.maxRecords, 'maxRecords', 1_000_000, Number.MAX_SAFE_INTEGER);
  const requests = new PollRequests({
    maxRequests: checkPollLimit(options.maxRequests, 'maxRequests', 100_000, DEFAULT_DAILY_MAX_REQUESTS),
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
    ...(options.isOutOfBudget ? { isOutOfBudget: options.isOutOfBudget } : {}),
  });
  const now = (options.now ?? Date.now)();
  const yesterday = lastClosedDay(now);
  const notices: string[] = [];
  let state = checkClicksPerDayState(stored);

  let owner = state?.owner;
  if (options.owner) {
    const check = await checkStateOwner(state?.owner, options.owner);
    owner = check.owner;
    if (check.verdict === 'other' && state !== undefined) {
      notices.push('The stored days belong to another account or service (the credential changed), so the trigger starts over from yesterday.');
      state = undefined;
    }
  }
  // The first poll starts from yesterday: the day before it counts as delivered.
  const doneThrough = state?.doneThrough ?? dayOfNumber(dayNumber(yesterday) - 1);
  let round = state?.round;
  if (round !== undefined && round.scope !== scope.key) {
    notices.push('The scope changed while the links were being read: the days are read again for the new scope.');
    round = undefined;
  }
  const next = (r: ClicksPerDayRound | undefined, through: string): ClicksPerDayState => ({ version: 1, kind: 'clicks-per-day', ...(owner ? { owner } : {}), doneThrough: through, ...(r ? { round: r } : {}) });

  if (round === undefined) {
    if (doneThrough >= yesterday) return { records: [], state: next(undefined, doneThrough), complete: true, notices, requests: 0 };
    const earliest = dayOfNumber(dayNumber(yesterday) - MAX_CATCH_UP_DAYS + 1);
    let from = dayOfNumber(dayNumber(doneThrough) + 1);
    if (from < earliest) {
      notices.push(`The trigger was off from ${from}: only the last ${MAX_CATCH_UP_DAYS} days (from ${earliest}) are delivered; earlier days are skipped.`);
      from = earliest;
    }
    round = { scope: scope.key, from, through: yesterday, pending: [], read: [] };
    if (scope.kind === 'chosen') round.pending = scope.ids!.map((id) => [id, '', '', ''] as KeptLink);
    else round.cursor = undefined;
  }

  // A round already read (only its later days were left by maxRecords) hands them out without a request.
  const listed = round.cursor === null || scope.kind === 'chosen' || (await walkList(fetchers, requests, round, scope, now, notices));
  const read = listed && (await readStats(fetchers, requests, round, notices));
  if (!read) return { records: [], state: next(round, doneThrough), complete: false, notices, requests: requests.count };
  return handOut(round, recordsOf(round, per, includeZero), maxRecords, (r, through) => ({ records: r.records, state: next(r.rest, through), complete: r.rest === undefined, notices, requests: requests.count }));
}

/**
 * The round's records, or its first whole days within `maxRecords` when there are more: the rest of the
 * round (its counts already read) stays in the state and the next poll hands it out without a request.
 */
function handOut<T>(round: ClicksPerDayRound, records: DailyClicksRecord[], maxRecords: number, done: (r: { records: DailyClicksRecord[]; rest?: ClicksPerDayRound }, through: string) => T): T {
  if (records.length <= maxRecords) return done({ records }, round.through);
  // Records come day by day: the longest run of whole days within the limit (at least the first day).
  let last = records[0]!.date;
  let count = 0;
  for (const day of new Set(records.map((record) => record.date))) {
    const size = records.filter((record) => record.date === day).length;
    if (count > 0 && count + size > maxRecords) break;
    count += size;
    last = day;
  }
  const given = records.slice(0, count);
  const cut = dayNumber(last) - dayNumber(round.from) + 1;
  const rest: ClicksPerDayRound = { ...round, from: dayOfNumber(dayNumber(last) + 1), read: round.read.map(([kept, clicks]) => [kept, clicks.slice(cut)]) };
  return done({ records: given, rest }, last);
}

/** The list from the round's cursor to its end, keeping the links in scope: true when the walk is over. */
async function walkList(fetchers: ClicksPerDayFetchers, requests: PollRequests, round: ClicksPerDayRound, scope: CheckedScope, now: number, notices: string[]): Promise<boolean> {
  const cutoff = daysBefore(now, scope.days ?? 0);
  while (round.cursor !== null) {
    const request: { limit: number; cursor?: string } = { limit: MAX_PAGE_SIZE };
    if (round.cursor !== undefined) request.cursor = round.cursor;
    const answer = await requests.send(() => fetchers.fetchPage(request), round.cursor !== undefined);
    if (answer.kind === 'stop') return false;
    if (answer.kind === 'refused') {
      notices.push(`The service no longer knows where the walk over the links stopped (${answer.reason}): the links are read again from the top.`);
      round.cursor = undefined;
      round.pending = [];
      continue;
    }
    for (const link of answer.value.links) {
      const inScope = scope.kind === 'recent' ? Date.parse(String(link.createdAt)) >= cutoff : isSelected(link, scope.campaign!);
      if (!inScope) continue;
      if (round.pending.length >= MAX_DAILY_LINKS) {
        if (!notices.some((n) => n.startsWith('More than'))) notices.push(`More than ${MAX_DAILY_LINKS} links are in scope: only the first ${MAX_DAILY_LINKS} in the list are watched.`);
        continue;
      }
      round.pending.push(keep(link));
    }
    const nextCursor = answer.value.nextCursor;
    round.cursor = nextCursor && nextCursor !== request.cursor ? nextCursor : null;
  }
  return true;
}

/** Each pending link's statistics (chosen links: the link first): true when every link is read. */
async function readStats(fetchers: ClicksPerDayFetchers, requests: PollRequests, round: ClicksPerDayRound, notices: string[]): Promise<boolean> {
  const days = daysOf({ from: round.from, to: round.through });
  while (round.pending.length > 0) {
    let kept = round.pending[0]!;
    if (kept[1] === '') {
      const answer = await requests.send(() => fetchers.fetchLink(kept[0]));
      if (answer.kind !== 'answer') return false;
      if (answer.value === undefined) {
        notices.push(`Link ${kept[0]} no longer exists: it is left out.`);
        round.pending.shift();
        continue;
      }
      kept = round.pending[0] = keep(answer.value);
    }
    const answer = await requests.send(() => fetchers.fetchStats(kept[0]));
    if (answer.kind !== 'answer') return false;
    round.pending.shift();
    if (answer.value === undefined) notices.push(`Link ${kept[0]} was deleted before its clicks were read: it is left out.`);
    else round.read.push([kept, clicksPerDay(answer.value, days)]);
  }
  return true;
}

/** The round's records, day by day (oldest first), links in list order (campaigns in code-point order). */
function recordsOf(round: ClicksPerDayRound, per: ClicksPerDayUnit, includeZero: boolean): DailyClicksRecord[] {
  const days = daysOf({ from: round.from, to: round.through });
  const records: DailyClicksRecord[] = [];
  if (per === 'link') {
    days.forEach((date, i) => {
      for (const [[linkId, shortUrl, title, targetUrl], clicks] of round.read) {
        if (!includeZero && clicks[i] === 0) continue;
        const tags = campaignTagsOf(targetUrl);
        records.push({ id: `${linkId}:${date}`, date, shortUrl, title, targetUrl, campaign: tags.campaign, source: tags.source, medium: tags.medium, linkId, clicks: clicks[i]! });
      }
    });
    return records;
  }
  const sums = new Map<string, { links: number; clicks: number[] }>();
  for (const [kept, clicks] of round.read) {
    const campaign = campaignTagsOf(kept[3]).campaign || NO_CAMPAIGN;
    let sum = sums.get(campaign);
    if (!sum) sums.set(campaign, (sum = { links: 0, clicks: days.map(() => 0) }));
    sum.links++;
    clicks.forEach((n, i) => (sum!.clicks[i]! += n));
  }
  const names = [...sums.keys()].sort((a, b) => (a === NO_CAMPAIGN ? 1 : 0) - (b === NO_CAMPAIGN ? 1 : 0) || (a < b ? -1 : a > b ? 1 : 0));
  days.forEach((date, i) => {
    for (const campaign of names) {
      const sum = sums.get(campaign)!;
      if (!includeZero && sum.clicks[i] === 0) continue;
      records.push({ id: `${campaign}:${date}`, date, campaign, links: sum.links, clicks: sum.clicks[i]! });
    }
  });
  return records;
}

/** A link that is gone (404) reads as undefined: the round leaves it out instead of failing. */
export function goneAsUndefined<T>(request: () => Promise<T>): Promise<T | undefined> {
  return request().catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
}

/** One poll through a client: its list, link and statistics requests, paced like all its calls. */
export function pollClicksPerDay(client: ShortLinkClient, state: ClicksPerDayState | undefined, options: PollClicksPerDayOptions): Promise<PollClicksPerDayResult> {
  return pollClicksPerDayWith(
    {
      fetchPage: (request) => client.listLinks(request),
      fetchLink: (id) => goneAsUndefined(() => client.getLink(id)),
      fetchStats: (id) => goneAsUndefined(() => client.getLinkStats(id)),
    },
    state,
    options,
  );
}
