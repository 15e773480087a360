/**
 * Find or Create across callers (docs/guarantees.md, "Many callers"). Several callers — Zap runs, n8n
 * executions, an agent's tool calls, on other machines, with no memory in common — may each find no link
 * and each create one for the same target at the same moment. Each then looks for twins, and they settle
 * on one link by a rule every caller computes the same way from what the list shows: the earliest created
 * (then the lowest id, link-index/same-link.ts). The caller whose link that is says "created"; every other
 * deletes the link *its own* request made (never another's) and answers with that one.
 *
 * Why they agree: a caller looks only once the list shows its own link (it waits, learning the list's lag,
 * list-lag.ts). Under the assumptions below, every link stored before its own is then listed too, so it
 * sees every twin that sorts before its own; a twin stored after it sorts after it, and that twin's caller
 * sees this one. So every caller picks the earliest twin, and only its maker keeps its own.
 * Assumed (and what breaks when not, in docs/guarantees.md):
 * - createdAt is stamped from one clock as a link is stored, so later links are never stamped earlier;
 *   links stored in the same millisecond get rising ids;
 * - the list shows links in the order they were stored: a lagging list shows a prefix of them (a link
 *   listed means every link stored before it is listed).
 */
import { CancelledError, DeadlineError, ShortLinkError, UnknownOutcomeError } from '../errors';
import type { SameLinkCriteria } from '../link-index/same-link';
import type { Link, LinkCreated } from '../types';
import type { ListLag } from './list-lag';

/** Longest wait for the list to show a new link before the call says it could not check for twins. */
export const TWIN_LOOK_MAX_MS = 60_000;
/** Time kept for deleting this call's own twin after the look. */
const DELETE_RESERVE_MS = 2_000;

export interface ConvergeIo {
  /** One look: whether the list shows `ownId`, and the same link that comes first (`twins`: how many others). */
  lookForTwins(criteria: SameLinkCriteria, reusableOnly: boolean, ownId: string): Promise<{ shown: boolean; first: Link | undefined; twins: number }>;
  /** Deletes the link this call made (a 404 after an uncertain attempt counts as done). */
  deleteOwn(id: string): Promise<void>;
  pause(ms: number): Promise<void>;
  now(): number;
  /** Epoch ms by which the call must end. */
  deadlineAt: number;
  listLag: ListLag;
}

export interface MadeLink {
  link: Link | LinkCreated;
  criteria: SameLinkCriteria;
  reusableOnly: boolean;
  /** When the create was sent, and when it answered (our clock). */
  sentAt: number;
  answeredAt: number;
}

export async function converge(io: ConvergeIo, made: MadeLink): Promise<{ link: Link | LinkCreated; created: boolean }> {
  const ownId = String(made.link.id);
  const lookUntil = Math.min(made.answeredAt + TWIN_LOOK_MAX_MS, io.deadlineAt - DELETE_RESERVE_MS);
  // The first look waits out the lag the list was seen to have: then one request usually does.
  const plannedMs = io.listLag.estimateMs;
  let lookAt = made.sentAt + plannedMs;
  let found: { first: Link | undefined; twins: number } | undefined;
  try {
    for (let look = 0; found === undefined; look++) {
      const waitMs = lookAt - io.now();
      if (waitMs > 0) await io.pause(waitMs);
      const startedAt = io.now();
      const result = await io.lookForTwins(made.criteria, made.reusableOnly, ownId);
      if (result.shown) {
        // Shown at the first look: the lag is within the wait planned (recording the time the look actually
        // began would add this machine's delays to the estimate at every create); later: within that time.
        io.listLag.observeShown(look === 0 ? plannedMs : startedAt - made.sentAt);
        found = result;
        break;
      }
      io.listLag.observeNotShown(startedAt - made.answeredAt);
      lookAt = io.now() + Math.min(2_000, 250 * 2 ** look);
      if (lookAt > lookUntil) throw notShown(made.link, io.now() - made.answeredAt);
    }
  } catch (error) {
    throw unsettled(error, made.link);
  }
  const { first } = found;
  if (first === undefined || String(first.id) === ownId) return { link: made.link, created: true };
  // Another call's twin is the link: this call removes the one its own request made, and only that one.
  try {
    await io.deleteOwn(ownId);
  } catch (error) {
    throw twinLeft(error, made.link, first);
  }
  return { link: first, created: false };
}

function shortUrlOf(link: Link | LinkCreated): string {
  return typeof link.shortUrl === 'string' ? ` (${link.shortUrl})` : '';
}

/** The list never showed the new link in time: whether another call made a twin meanwhile is unknown. */
function notShown(link: Link | LinkCreated, afterMs: number): UnknownOutcomeError {
  return new UnknownOutcomeError({
    title: 'Outcome unknown',
    message:
      `The link was created (id ${String(link.id)}${shortUrlOf(link)}), but the list of links did not show it within ${Math.round(afterMs / 1000)} s, ` +
      'so a link made for the same URL at the same moment by another step or workflow cannot be ruled out. Running this item again finds the one link to keep.',
  });
}

/** Stopped or out of time while looking for twins: the link exists; whether it has a twin is unknown. */
function unsettled(error: unknown, link: Link | LinkCreated): unknown {
  if (!(error instanceof ShortLinkError) || error instanceof UnknownOutcomeError) return error;
  const why = `whether another step or workflow made the same link at the same moment could not be checked (${error.message.replace(/\.$/, '')})`;
  const message = `The link was created (id ${String(link.id)}${shortUrlOf(link)}), but ${why}. Running this item again finds the one link to keep.`;
  if (error instanceof CancelledError) return new CancelledError({ title: error.title, message, outcomeUnknown: true });
  if (error instanceof DeadlineError) return new DeadlineError({ title: error.title, message, limitMs: error.limitMs, outcomeUnknown: true });
  return new UnknownOutcomeError({ title: 'Outcome unknown', message, ...(error.status !== undefined ? { status: error.status } : {}) });
}

/** The twin this call made could not be removed: both exist; the user is told which one to keep. */
function twinLeft(error: unknown, own: Link | LinkCreated, first: Link): unknown {
  if (!(error instanceof ShortLinkError)) return error;
  const message =
    `Another step or workflow made the same link at the same moment (id ${String(first.id)}${shortUrlOf(first)}: the one to keep). ` +
    `The copy this run made (id ${String(own.id)}${shortUrlOf(own)}) could not be deleted (${error.message.replace(/\.$/, '')}): delete it.`;
  if (error instanceof CancelledError) return new CancelledError({ title: error.title, message, outcomeUnknown: true });
  return new UnknownOutcomeError({ title: 'Duplicate left', message });
}
