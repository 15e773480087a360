/**
 * The stored state of a Link Clicks trigger: plain JSON the host keeps as it is (n8n's workflow static
 * data, Zapier's z.cache). Bounded: one entry per watched link (at most MAX_WATCHED_LINKS, links that left
 * the scope or were deleted are dropped at the end of each round), the owner, and where an unfinished
 * walk goes on. Checked on every poll: a broken state fails loudly instead of firing milestones again.
 */
import { InputError } from '../../errors';
import { isStateOwner, type StateOwner } from '../state-owner';

/**
 * Links watched at most: a scope with more links watches its newest 10 000 (100 list requests). Keeps the
 * state near 300 KB and one round within one poll on a service that allows 120 requests a minute.
 */
export const MAX_WATCHED_LINKS = 10_000;

/** A round (one walk over the scope) that did not end within one poll: the next poll goes on from here. */
export interface LinkClicksWalk {
  /** The scope the walk was made for (WatchedScope.key); another scope starts a new round. */
  scope: string;
  /** Service time when the round began, ISO. */
  startedAt: string;
  /** Recent links: the cursor of the next page. */
  cursor?: string;
  /** Chosen links: how many of them were read. */
  position?: number;
  /** Recent links: the list showed itself oldest first (the walk cannot stop at the first older link). */
  oldestFirst?: true;
  /** Links in scope seen so far in this round. */
  seen: number;
}

export interface LinkClicksState {
  version: 1;
  kind: 'link-clicks';
  /** Whose state this is; a state of another account or service starts over (never replays). */
  owner?: StateOwner;
  /** The round the trigger is in; a link's entry carries the round it was last seen in. */
  round: number;
  /**
   * Service time when the last complete round began (ISO). A link the state does not know that was created
   * after it is new (counted from zero); one created before it was there already and just came into the
   * scope (its count is taken as it is). Absent until the first round is complete: everything is taken as it is.
   */
  knownBefore?: string;
  /**
   * Per link identity (`${id}@${createdAt ms}`, identity.ts; a bare id in states written before, taken over
   * on the link's next reading): [the highest click count handled, the round it was last seen in].
   */
  links: Record<string, [number, number]>;
  walk?: LinkClicksWalk;
  /** A poll that had more events than it may hand out stopped after this link: the next one starts after it. */
  resumeAfter?: string;
}

function fail(what: string): never {
  throw new InputError('state', `The stored link-clicks state is not valid (${what}); reset it to start over (milestones already reached are then not reported again).`);
}

function isIso(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The stored state checked (undefined for none); fails naming what is wrong. */
export function checkLinkClicksState(value: unknown): LinkClicksState | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail('not an object');
  const state = value as Partial<LinkClicksState> & Record<string, unknown>;
  if (state.version !== 1 || state.kind !== 'link-clicks') fail('unknown version or kind');
  if (state.owner !== undefined && !isStateOwner(state.owner)) fail('owner');
  if (!isCount(state.round) || state.round < 1) fail('round');
  if (state.knownBefore !== undefined && !isIso(state.knownBefore)) fail('knownBefore');
  if (typeof state.links !== 'object' || state.links === null || Array.isArray(state.links)) fail('links');
  for (const entry of Object.values(state.links)) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isCount(entry[0]) || !isCount(entry[1])) fail('a link entry');
  }
  if (Object.keys(state.links).length > MAX_WATCHED_LINKS * 2) fail('too many links');
  const walk = state.walk;
  if (walk !== undefined) {
    if (typeof walk !== 'object' || walk === null || typeof walk.scope !== 'string' || !isIso(walk.startedAt) || !isCount(walk.seen)) fail('walk');
    if (walk.cursor !== undefined && (typeof walk.cursor !== 'string' || walk.cursor === '')) fail('walk cursor');
    if (walk.position !== undefined && !isCount(walk.position)) fail('walk position');
  }
  if (state.resumeAfter !== undefined && typeof state.resumeAfter !== 'string') fail('resumeAfter');
  return state as LinkClicksState;
}

/**
 * A state that knows no link and counts every link from zero: each poll then reports every milestone a
 * link has reached (or every link with clicks), for a host that cannot keep a state between polls but
 * drops what it has seen by the events' ids (Zapier without a Zap id). Its clicksBefore means nothing.
 */
export function lookBackState(): LinkClicksState {
  return { version: 1, kind: 'link-clicks', round: 1, knownBefore: new Date(0).toISOString(), links: {} };
}
