/**
 * What a Link Clicks trigger watches, checked before any request: the mode, the milestones and the scope.
 * Errors name the option (hosts turn the name into their form's label) and say what is allowed.
 */
import { InputError } from '../../errors';
import { checkLinkId } from '../../forms/input-checks';

export type LinkClicksMode = 'milestones' | 'newClicks';

/** Links created in the last N days (the list is newest first: the walk stops at the first older link), or chosen links. */
export type LinkClicksScope = { createdWithinDays: number } | { linkIds: readonly string[] };

export const MAX_MILESTONES = 50;
export const MAX_MILESTONE = 1_000_000_000_000;
export const MAX_CREATED_WITHIN_DAYS = 3650;
/** Chosen links are read one request each: more than this is a scope of "recent links" in disguise. */
export const MAX_CHOSEN_LINKS = 100;
export const DEFAULT_CREATED_WITHIN_DAYS = 30;

export interface WatchedScope {
  kind: 'recent' | 'chosen';
  /** recent: the window in days. */
  days?: number;
  /** chosen: the ids in the order given, each once. */
  ids?: string[];
  /** Names the scope in the state: a walk that was made for another scope is not continued. */
  key: string;
}

export function checkMode(value: unknown): LinkClicksMode {
  if (value === 'milestones' || value === 'newClicks') return value;
  throw new InputError('mode', `mode must be "milestones" (one event per link and milestone reached) or "newClicks" (one event per link whose count grew); got ${JSON.stringify(value)}.`);
}

/** Milestones ascending, each once; whole numbers from 1 to 10^12, at most 50 of them. */
export function checkMilestones(value: unknown, field = 'milestones'): number[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InputError(field, `${field} must name at least one click count, such as 100 or 1000.`);
  }
  for (const entry of value) {
    if (typeof entry !== 'number' || !Number.isInteger(entry) || entry < 1 || entry > MAX_MILESTONE) {
      throw new InputError(field, `${field} must be whole numbers from 1 to ${MAX_MILESTONE.toLocaleString('en-US')}; got ${JSON.stringify(entry)}.`);
    }
  }
  const sorted = [...new Set(value as number[])].sort((a, b) => a - b);
  if (sorted.length > MAX_MILESTONES) throw new InputError(field, `${field} may name at most ${MAX_MILESTONES} click counts; got ${sorted.length}.`);
  return sorted;
}

/**
 * A list of milestones as a person types it: "50, 250, 5000" (commas, semicolons or spaces between them).
 * "1,000" is refused rather than read as 1 and 0: the thousands separator is the list's separator.
 */
export function parseMilestones(text: unknown, field = 'milestones'): number[] {
  const raw = typeof text === 'number' ? String(text) : typeof text === 'string' ? text.trim() : '';
  if (raw === '') return [];
  const parts = raw.split(/[\s,;]+/).filter((part) => part !== '');
  const numbers = parts.map((part) => {
    if (!/^[1-9]\d*$/.test(part)) {
      throw new InputError(
        field,
        `${field}: "${part.slice(0, 40)}" is not a whole number above 0. Separate click counts with commas and write them without thousands separators, for example 50, 250, 5000.`,
      );
    }
    return Number(part);
  });
  return checkMilestones(numbers, field);
}

export function checkScope(value: unknown): WatchedScope {
  const scope = (typeof value === 'object' && value !== null ? value : {}) as { createdWithinDays?: unknown; linkIds?: unknown };
  const hasDays = scope.createdWithinDays !== undefined;
  const hasIds = scope.linkIds !== undefined;
  if (hasDays === hasIds) {
    throw new InputError('scope', 'scope must be either { createdWithinDays } (links created in the last N days) or { linkIds } (chosen links).');
  }
  if (hasDays) {
    const days = scope.createdWithinDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_CREATED_WITHIN_DAYS) {
      throw new InputError('createdWithinDays', `createdWithinDays must be a whole number of days from 1 to ${MAX_CREATED_WITHIN_DAYS}; got ${JSON.stringify(days)}.`);
    }
    return { kind: 'recent', days, key: `recent:${days}` };
  }
  if (!Array.isArray(scope.linkIds) || scope.linkIds.length === 0) {
    throw new InputError('linkIds', 'linkIds must name at least one link (its id).');
  }
  const ids = [...new Set(scope.linkIds.map((id) => checkLinkId(id, 'linkIds')))];
  if (ids.length > MAX_CHOSEN_LINKS) {
    throw new InputError('linkIds', `linkIds may name at most ${MAX_CHOSEN_LINKS} links (each costs one request a poll); got ${ids.length}. Watch links created in the last N days instead.`);
  }
  return { kind: 'chosen', ids, key: `chosen:${[...ids].sort().join(',')}` };
}
