/**
 * New links in a list served oldest first (not the document's order, but a service may do it). New links
 * come at the end, so a poll reads on from the page where the last one stopped (its cursor is kept) and
 * hands out, in list order, every link above the mark. A quiet poll reads that one page again.
 */
import { lastTime, timeOf } from './list-order';
import { type PollRun, Trail, wentBackError } from './poll-run';

export type OldestFirstOutcome = { kind: 'flip' } | { kind: 'done'; tailCursor: string | undefined; rising: boolean; complete: boolean };

/**
 * `settling`: the trigger's first pass over the list (it started on an oldest-first list and has not
 * reached its end yet). Links without a readable date found then were there before: they cannot be
 * dated against the start, so they count as old (dated links are told apart by the mark).
 */
export async function pollOldestFirst(run: PollRun, tailCursor: string | undefined, settling = false): Promise<OldestFirstOutcome> {
  const trail = new Trail();
  let cursor = tailCursor;
  let fromState = tailCursor !== undefined;
  let before: number | undefined;
  let rising = false;
  for (;;) {
    const read = await run.read(cursor, fromState);
    if (read.kind === 'stop') return { kind: 'done', tailCursor: cursor, rising, complete: false };
    if (read.kind === 'refused') {
      run.notice(`The service refused the saved cursor (${read.reason}); the trigger reads the list again from its start. Nothing is lost or repeated: links at or below the mark are skipped.`);
      cursor = undefined;
      fromState = false;
      before = undefined;
      continue;
    }
    fromState = false;
    const { links, nextCursor } = read.page;
    const { inside, across } = trail.orderOf(read.cursor, links, before);
    if (across === 'falling') {
      if (inside === 'falling' || !rising) return { kind: 'flip' };
      throw wentBackError(trail.pages, false);
    }
    if (across === 'rising') rising = true;
    before = lastTime(links, before);
    for (const link of trail.fresh(links)) {
      if (run.isHandled(link)) continue;
      if (settling && timeOf(link) === undefined) {
        run.remember([link]);
        continue;
      }
      // Full: this page is read again next time, its handed-out links now below the mark.
      if (run.linksLeft === 0) return { kind: 'done', tailCursor: read.cursor, rising, complete: false };
      run.emit([link]);
    }
    if (!nextCursor) return { kind: 'done', tailCursor: read.cursor, rising, complete: true };
    trail.follow(nextCursor);
    cursor = nextCursor;
  }
}
