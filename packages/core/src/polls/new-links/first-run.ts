/**
 * The first poll of a trigger that starts with "new links only": it finds the newest link and makes it
 * the mark, handing out nothing. Empty pages that still carry a next cursor are not the end of the list,
 * and when many links share the newest millisecond every id at that instant is collected, over several
 * polls if the page budget runs out. A top page that says nothing about the order (one link, one instant)
 * is followed by the next one, so that a list served oldest first is recognised before a mark is taken.
 */
import type { Link } from '../../types';
import { lastTime, timeOf } from './list-order';
import { type PollRun, Trail } from './poll-run';

export type FirstRunOutcome =
  | { kind: 'flip'; startedAt: number }
  | { kind: 'done'; falling: boolean }
  | { kind: 'paused'; cursor: string | undefined; startedAt: number; walkedTo: number | undefined; above: boolean };

/** Where an earlier poll left the first run: its cursor (none: the top), when it began, the last createdAt it passed. */
export interface FirstRunPlace {
  cursor?: string;
  startedAt?: number;
  walkedTo?: number;
  /** Reading again from the top, still above the links collected before (those came later). */
  above?: boolean;
}

/**
 * `now` is the service's clock: read after the first answer, it tells "created before the trigger
 * started" from "after" if the list turns out to be served oldest first.
 */
export async function firstRun(run: PollRun, from: FirstRunPlace | undefined, now: () => number): Promise<FirstRunOutcome> {
  const trail = new Trail();
  let cursor = from?.cursor;
  let fromState = cursor !== undefined;
  let before = from?.walkedTo;
  let startedAt = from?.startedAt;
  let falling = false;
  // Read again from the top after an earlier poll began collecting: what lies above the links it
  // collected was created since.
  let fromTop = from?.above ?? (from !== undefined && from.cursor === undefined && run.mark !== null);
  for (;;) {
    const read = await run.read(cursor, fromState);
    if (read.kind === 'stop') return { kind: 'paused', cursor, startedAt: startedAt ?? now(), walkedTo: before, above: fromTop };
    if (read.kind === 'refused') {
      // From the top again: links above the ones collected so far came later and stay new.
      run.notice(`The service refused the saved cursor of the first poll (${read.reason}); it goes on from the top of the list.`);
      cursor = undefined;
      fromState = false;
      before = undefined;
      fromTop = true;
      continue;
    }
    fromState = false;
    startedAt ??= now();
    const { links, nextCursor } = read.page;
    const { across } = trail.orderOf(read.cursor, links, before);
    if (across === 'rising') return { kind: 'flip', startedAt };
    if (across === 'falling') falling = true;
    before = lastTime(links, before);
    // A link newer than the mark that is older than the first run itself was there when it began: the
    // first link read was not the newest, so the list is not newest first.
    if (run.mark !== null && links.some((link) => existedAboveMark(link, run.mark!.createdAt, startedAt!))) return { kind: 'flip', startedAt };
    const collected = collect(run, trail.fresh(links), fromTop);
    fromTop = collected.above;
    if (collected.done) return { kind: 'done', falling };
    if (!nextCursor) return { kind: 'done', falling };
    trail.follow(nextCursor);
    cursor = nextCursor;
  }
}

/**
 * Takes the newest instant and its ids as the mark; `done` once a link older than that instant was met.
 * Links newer than a mark taken by an earlier poll of this first run were created since: they stay new,
 * and so do links of the mark's instant above the first one collected (`above`: still above it).
 */
function collect(run: PollRun, links: readonly Link[], above: boolean): { done: boolean; above: boolean } {
  for (const link of links) {
    const t = timeOf(link);
    if (t === undefined) {
      run.remember([link]);
      continue;
    }
    if (run.mark === null) {
      run.raiseMark(link, t);
      continue;
    }
    const markT = Date.parse(run.mark.createdAt);
    if (t < markT) return { done: true, above: false };
    if (t > markT) continue;
    const id = String(link.id);
    if (run.mark.ids.includes(id)) above = false;
    else if (!(above && createdLater(id, run.mark.ids))) run.raiseMark(link, t);
  }
  return { done: false, above };
}

function existedAboveMark(link: Link, markAt: string, startedAt: number): boolean {
  const t = timeOf(link);
  return t !== undefined && t > Date.parse(markAt) && t < startedAt;
}

/**
 * Whether a link of the mark's millisecond met above the collected ones came after them. The document's
 * ids grow with creation, so numeric ids answer it even when the collected links were deleted meanwhile;
 * other ids are taken by their place in the list (above means later).
 */
function createdLater(id: string, collected: readonly string[]): boolean {
  const numeric = /^\d{1,15}$/;
  if (!numeric.test(id) || !collected.every((known) => numeric.test(known))) return true;
  return collected.every((known) => Number(id) > Number(known));
}
