/**
 * The stored state of the new-links algorithm: plain JSON the host keeps as it is (n8n's workflow static
 * data, Zapier's z.cache). Checked on every poll: a broken state fails loudly instead of re-emitting or
 * skipping links. A state of version 1 (the first algorithm) is read and carried over.
 */
import { InputError } from '../../errors';
import { isStateOwner, type StateOwner } from '../state-owner';
import { readTime, type ListOrder } from './list-order';

/** Everything at or below this position of the list is handled (emitted, or there before the start). */
export interface NewLinksMark {
  /** createdAt of the newest handled link. */
  createdAt: string;
  /** Ids of the handled links with exactly that createdAt (links can share a millisecond). */
  ids: string[];
}

/** A page of a backlog that holds links not yet handed out. */
export interface NewLinksSegment {
  /** The cursor that reads it; absent for the page at the top of the list. */
  cursor?: string;
  /** Id of its oldest new link when it was walked: reading it again ends there. */
  last: string;
  /** The top page only: its newest link; links above it came later and belong to a later walk. */
  upTo?: NewLinksMark;
}

/** Newest-first lists: a backlog larger than one poll, caught up oldest first over several polls. */
export interface NewLinksCatchUp {
  /** The pages holding links not yet handed out, newest first; handed out from the last one up. */
  segments: NewLinksSegment[];
  /** Where the walk down to the mark goes on; absent once the walk reached the mark. */
  walkCursor?: string;
  /** createdAt of the last dated link the walk passed: the next page must not be newer (else: order, cycle). */
  walkedTo?: string;
}

export interface NewLinksState {
  version: 2;
  /** Whose state this is; a state of another account or service starts over (never replays). */
  owner?: StateOwner;
  /** The order the service lists links in, once seen (detected from createdAt). */
  order?: ListOrder;
  /** null: the account had no link when the trigger started, so every link is new. */
  mark: NewLinksMark | null;
  catchUp?: NewLinksCatchUp;
  /** Oldest-first lists: the cursor of the page where reading goes on (absent: from the start). */
  tailCursor?: string;
  /** Order still unknown: the page after the one that met the mark, read by the next poll to learn it. */
  probe?: string;
  /**
   * The first poll is still finding the newest link (empty pages, or many links in one millisecond): it
   * goes on from `cursor` (absent: from the top). `startedAt` is the service's time when it began,
   * `walkedTo` the createdAt of the last dated link it passed (to see the list's order across polls);
   * `above`: read again from the top, it has not yet come down to the links it collected before.
   */
  firstRun?: { cursor?: string; startedAt?: string; walkedTo?: string; above?: true };
  /** The first pass over a list served oldest first has not reached its end yet (see oldest-first.ts). */
  settling?: true;
  /** Ids of links whose createdAt cannot be read that were already handled (emitted or there before). */
  undated?: string[];
}

/** The first algorithm's state, still found in hosts' storage after an upgrade. */
interface StateV1 {
  version: 1;
  mark: NewLinksMark | null;
  resume?: unknown;
}

function fail(what: string): never {
  throw new InputError('state', `The stored new-links state is not valid (${what}); reset it to start over from the newest link.`);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isCursor(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function checkSegment(value: unknown): NewLinksSegment {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('a segment must be an object');
  const v = value as Record<string, unknown>;
  if (typeof v.last !== 'string') return fail('a segment needs the id of its last link');
  const segment: NewLinksSegment = { last: v.last };
  if (v.cursor !== undefined) {
    if (!isCursor(v.cursor)) return fail('a segment cursor must be a cursor');
    segment.cursor = v.cursor;
  }
  if (v.upTo !== undefined) {
    const upTo = checkMark(v.upTo);
    if (upTo === null) return fail('a segment upTo must be a position');
    segment.upTo = upTo;
  }
  return segment;
}

function checkMark(mark: unknown): NewLinksMark | null {
  if (mark === null) return null;
  if (typeof mark !== 'object' || Array.isArray(mark)) return fail('mark must be an object or null');
  const m = mark as Record<string, unknown>;
  if (readTime(m.createdAt) === undefined || !isStringArray(m.ids)) return fail('mark needs a readable createdAt and ids');
  return { createdAt: m.createdAt as string, ids: m.ids };
}

/**
 * A stored state as the current version, or undefined for none. A version-1 state keeps its mark (where
 * links were handled up to) and drops its resume point: the next walk from the top finds that backlog again.
 */
export function checkNewLinksState(state: unknown): NewLinksState | undefined {
  if (state === undefined || state === null) return undefined;
  if (typeof state !== 'object' || Array.isArray(state)) return fail('not an object');
  const s = state as Record<string, unknown>;
  if (s.version === 1) return { version: 2, mark: checkMark((s as unknown as StateV1).mark) };
  if (s.version !== 2) return fail('unknown version');
  const checked: NewLinksState = { version: 2, mark: checkMark(s.mark) };
  if (s.owner !== undefined) {
    if (!isStateOwner(s.owner)) return fail('owner needs baseUrl and credential');
    checked.owner = s.owner;
  }
  if (s.order !== undefined) {
    if (s.order !== 'newest-first' && s.order !== 'oldest-first') return fail('order is newest-first or oldest-first');
    checked.order = s.order;
  }
  if (s.catchUp !== undefined) {
    const c = s.catchUp as Record<string, unknown> | null;
    if (typeof c !== 'object' || c === null || !Array.isArray(c.segments)) return fail('catchUp needs segments');
    if (c.walkCursor !== undefined && !isCursor(c.walkCursor)) return fail('catchUp walkCursor must be a cursor');
    checked.catchUp = { segments: c.segments.map(checkSegment) };
    if (c.walkCursor !== undefined) checked.catchUp.walkCursor = c.walkCursor;
    if (c.walkedTo !== undefined) {
      if (readTime(c.walkedTo) === undefined) return fail('catchUp walkedTo must be a timestamp');
      checked.catchUp.walkedTo = c.walkedTo as string;
    }
  }
  if (s.tailCursor !== undefined) {
    if (!isCursor(s.tailCursor)) return fail('tailCursor must be a cursor');
    checked.tailCursor = s.tailCursor;
  }
  if (s.probe !== undefined) {
    if (!isCursor(s.probe)) return fail('probe must be a cursor');
    checked.probe = s.probe;
  }
  if (s.firstRun !== undefined) {
    const f = s.firstRun as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null || Array.isArray(f)) return fail('firstRun must be an object');
    checked.firstRun = {};
    if (f.cursor !== undefined) {
      if (!isCursor(f.cursor)) return fail('firstRun cursor must be a cursor');
      checked.firstRun.cursor = f.cursor;
    }
    if (f.above !== undefined) {
      if (f.above !== true) return fail('firstRun above must be true');
      checked.firstRun.above = true;
    }
    for (const key of ['startedAt', 'walkedTo'] as const) {
      if (f[key] === undefined) continue;
      if (readTime(f[key]) === undefined) return fail(`firstRun ${key} must be a timestamp`);
      checked.firstRun[key] = f[key] as string;
    }
  }
  if (s.settling !== undefined) {
    if (s.settling !== true) return fail('settling must be true');
    checked.settling = true;
  }
  if (s.undated !== undefined) {
    if (!isStringArray(s.undated)) return fail('undated must be a list of ids');
    checked.undated = [...s.undated];
  }
  return checked;
}
