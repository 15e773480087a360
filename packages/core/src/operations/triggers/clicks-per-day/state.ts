/**
 * The stored state of a Clicks Per Day trigger: plain JSON the host keeps (n8n's static data, Zapier's
 * cache). `doneThrough` is the last day delivered for every link in scope: days after it are delivered
 * once, and only once it is moved on. A round (the days from doneThrough + 1 to yesterday) that needs more
 * requests than one poll may send keeps its progress here: the links still to read, and the clicks per
 * day of those read (bounded: MAX_DAILY_LINKS links × MAX_CATCH_UP_DAYS days).
 */
import { InputError } from '../../../errors';
import { isStateOwner, type StateOwner } from '../../../polls/state-owner';

/** Days delivered at most after the trigger was off: older ones are skipped (and said so). */
export const MAX_CATCH_UP_DAYS = 31;
/** Links watched at most: each costs one statistics request once a day. */
export const MAX_DAILY_LINKS = 1000;

/** A link as kept in the state: [id, shortUrl, title, targetUrl]. */
export type KeptLink = [string, string, string, string];

export interface ClicksPerDayRound {
  scope: string;
  /** First and last day of the round (YYYY-MM-DD, UTC). */
  from: string;
  through: string;
  /** The list walk's next page; absent when the walk has not begun; null when it is over. */
  cursor?: string | null;
  /** Links in scope not read yet (list order). */
  pending: KeptLink[];
  /** Links read: the link and its clicks on each day of the round. */
  read: [KeptLink, number[]][];
}

export interface ClicksPerDayState {
  version: 1;
  kind: 'clicks-per-day';
  owner?: StateOwner;
  /** The last day delivered (YYYY-MM-DD, UTC). */
  doneThrough: string;
  round?: ClicksPerDayRound;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function fail(what: string): never {
  throw new InputError('state', `The stored clicks-per-day state is not valid (${what}); reset it to start over from yesterday.`);
}

const isKept = (v: unknown): v is KeptLink => Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === 'string');

export function checkClicksPerDayState(value: unknown): ClicksPerDayState | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail('not an object');
  const state = value as Partial<ClicksPerDayState>;
  if (state.version !== 1 || state.kind !== 'clicks-per-day') fail('unknown version or kind');
  if (state.owner !== undefined && !isStateOwner(state.owner)) fail('owner');
  if (typeof state.doneThrough !== 'string' || !DAY.test(state.doneThrough)) fail('doneThrough');
  const round = state.round;
  if (round !== undefined) {
    if (typeof round !== 'object' || round === null || typeof round.scope !== 'string' || !DAY.test(String(round.from)) || !DAY.test(String(round.through))) fail('round');
    if (round.cursor !== undefined && round.cursor !== null && typeof round.cursor !== 'string') fail('round cursor');
    if (!Array.isArray(round.pending) || !round.pending.every(isKept) || round.pending.length > MAX_DAILY_LINKS) fail('pending links');
    if (!Array.isArray(round.read) || round.read.length > MAX_DAILY_LINKS) fail('read links');
    for (const entry of round.read) {
      if (!Array.isArray(entry) || !isKept(entry[0]) || !Array.isArray(entry[1]) || !entry[1].every((n) => Number.isInteger(n) && n >= 0)) fail('a read link');
    }
  }
  return state as ClicksPerDayState;
}
