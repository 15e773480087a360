/**
 * New links in a list served newest first (the document's order). A poll walks from the top down to the
 * mark; what it found is handed out oldest first. A backlog larger than one poll is caught up in linear
 * time: the walk down remembers the cursor of every page that holds new links (and goes on over several
 * polls if it must), then the pages are handed out from the oldest up, each read at most once more, while
 * the mark follows them up. The top page has no cursor: it is read from the top again, skipping what
 * came later than its newest link.
 */
import type { Link } from '../../types';
import { lastTime, orderEvidence, timeOf, type ListOrder } from './list-order';
import { noOrderError, type PollRun, Trail, wentBackError } from './poll-run';
import type { NewLinksCatchUp, NewLinksMark, NewLinksSegment } from './state';

/** A segment as a poll handles it: while kept in memory, with its new links (newest first). */
interface Segment extends NewLinksSegment {
  links?: Link[];
}

type Walk =
  | { kind: 'reached'; segments: Segment[]; falling: boolean; probe?: string }
  | { kind: 'stopped'; segments: Segment[]; next: string | undefined; falling: boolean; walkedTo: number | undefined }
  | { kind: 'refused'; reason: string }
  | { kind: 'flip' };

export type NewestFirstOutcome =
  | { kind: 'flip' }
  | { kind: 'done'; catchUp?: NewLinksCatchUp; falling: boolean; complete: boolean; probe?: string };

/** Pages of links kept in memory: what the poll may still hand out, and one page more. */
function keptPages(run: PollRun): number {
  return Math.ceil(run.limits.maxLinks / run.limits.pageSize) + 1;
}

/** The newest dated position among the links (its instant and the ids at it). */
function newestPosition(links: readonly Link[]): NewLinksMark | undefined {
  let newest: { t: number; position: NewLinksMark } | undefined;
  for (const link of links) {
    const t = timeOf(link);
    if (t === undefined) continue;
    if (newest === undefined || t > newest.t) newest = { t, position: { createdAt: link.createdAt, ids: [String(link.id)] } };
    else if (t === newest.t) newest.position.ids.push(String(link.id));
  }
  return newest?.position;
}

function segmentOf(cursor: string | undefined, fresh: Link[]): Segment {
  const segment: Segment = { last: String(fresh[fresh.length - 1]!.id), links: fresh };
  if (cursor !== undefined) segment.cursor = cursor;
  else {
    const upTo = newestPosition(fresh);
    if (upTo) segment.upTo = upTo;
  }
  return segment;
}

/** What is stored of a segment (its links stay in memory only). */
function stored(segments: readonly Segment[]): NewLinksSegment[] {
  return segments.map(({ links: _kept, ...segment }) => segment);
}

/** The catch-up of a walk that stopped before the mark: it goes on from `next` at the next poll. */
function goOn(segments: readonly Segment[], walked: { next: string | undefined; walkedTo: number | undefined }): NewLinksCatchUp {
  const catchUp: NewLinksCatchUp = { segments: stored(segments) };
  if (walked.next !== undefined) catchUp.walkCursor = walked.next;
  if (walked.walkedTo !== undefined) catchUp.walkedTo = new Date(walked.walkedTo).toISOString();
  return catchUp;
}

/** Created after the top segment's newest link: belongs to a later walk. */
function isAbove(link: Link, upTo: NewLinksMark): boolean {
  const t = timeOf(link);
  if (t === undefined) return false;
  const top = Date.parse(upTo.createdAt);
  return t > top || (t === top && !upTo.ids.includes(String(link.id)));
}

/**
 * The new links of a page, newest first, down to the first handled dated link (`reached`): in the
 * document's order everything after it is handled too, except links without a readable date, which a
 * service may sort anywhere; those are taken wherever they show up. `after` is the rest of the page.
 */
function takeNew(run: PollRun, links: readonly Link[]): { fresh: Link[]; reached: boolean; after: Link[] } {
  const at = links.findIndex((link) => run.isHandledDated(link));
  const before = at === -1 ? links : links.slice(0, at);
  const after = at === -1 ? [] : links.slice(at + 1);
  const fresh = [...before, ...after.filter((link) => timeOf(link) === undefined)].filter((link) => !run.isHandled(link));
  return { fresh, reached: at !== -1, after };
}

/** In a newest-first list nothing after a handled link is new: a new dated link there shows the other order. */
function newAfterHandled(run: PollRun, links: readonly Link[]): boolean {
  return links.some((link) => timeOf(link) !== undefined && !run.isHandled(link));
}

/**
 * Walks pages from `cursor` (undefined: the top) down to the first handled link or the end of the list,
 * collecting the pages that hold new links. While the order is still unknown and the page that met the
 * mark says nothing about it, one page more is read to learn it (or, when the poll has no request left,
 * that page is kept as `probe` for the next poll).
 */
async function walkDown(
  run: PollRun,
  cursor: string | undefined,
  fromState: boolean,
  trail: Trail,
  order: ListOrder | undefined,
  walkedTo?: number,
  learn = order === undefined,
): Promise<Walk> {
  const segments: Segment[] = [];
  let before = walkedTo;
  let falling = order === 'newest-first';
  let learning = false;
  for (let page = 0; ; page++) {
    const read = await run.read(cursor, fromState && page === 0);
    // The mark was met already: a page read only to learn the order can wait for the next poll.
    if (learning && read.kind !== 'page') return read.kind === 'stop' ? { kind: 'reached', segments, falling, probe: cursor! } : { kind: 'reached', segments, falling };
    if (read.kind === 'stop') return { kind: 'stopped', segments, next: cursor, falling, walkedTo: before };
    if (read.kind === 'refused') return { kind: 'refused', reason: read.reason };
    const { links, nextCursor } = read.page;
    const { inside, across } = trail.orderOf(read.cursor, links, before);
    if (across === 'rising') {
      // Rising inside a page is the other order; rising only across pages, in a list seen falling, means
      // the cursor led back up.
      if (inside === 'rising' || !falling) return { kind: 'flip' };
      throw wentBackError(trail.pages, true);
    }
    if (across === 'falling') falling = true;
    before = lastTime(links, before);
    if (learning) {
      const unseen = trail.fresh(links);
      if (newAfterHandled(run, unseen)) return { kind: 'flip' };
      // Links without a readable date below the mark are still new: they are handed out with the rest.
      const undated = unseen.filter((link) => !run.isHandled(link));
      if (undated.length > 0) segments.push(segmentOf(read.cursor, undated));
      // Still nothing to tell the order by: the next poll looks one page further.
      if (!falling && nextCursor) return { kind: 'reached', segments, falling, probe: nextCursor };
      return { kind: 'reached', segments, falling };
    }

    const unseen = trail.fresh(links);
    const { fresh, reached, after } = takeNew(run, unseen);
    if (reached && !falling && learn && newAfterHandled(run, after)) return { kind: 'flip' };
    if (fresh.length > 0) {
      segments.push(segmentOf(read.cursor, fresh));
      const kept = keptPages(run);
      if (segments.length > kept) delete segments[segments.length - kept - 1]!.links;
    }
    if (!nextCursor) return { kind: 'reached', segments, falling };
    if (reached) {
      if (falling || !learn) return { kind: 'reached', segments, falling };
      learning = true; // learn the order from the next page, then stop
    }
    trail.follow(nextCursor);
    cursor = nextCursor;
  }
}

type Reread =
  | { kind: 'links'; links: Link[] }
  /** `from`: only empty pages so far; the segment can be read on from this cursor next time. */
  | { kind: 'stop'; from?: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'flip' };

/** A stored segment read again: its links from its cursor (or the top) down to its last one, newest first. */
async function reread(run: PollRun, segment: NewLinksSegment): Promise<Reread> {
  const trail = new Trail();
  const links: Link[] = [];
  let at = segment.cursor;
  let before: number | undefined;
  let onlyEmpty = true;
  for (let page = 0; ; page++) {
    const read = await run.read(at, at !== undefined && page === 0);
    if (read.kind === 'stop') return onlyEmpty && page > 0 && at !== undefined ? { kind: 'stop', from: at } : { kind: 'stop' };
    if (read.kind === 'refused') return { kind: 'refused', reason: read.reason };
    onlyEmpty &&= read.page.links.length === 0;
    if (trail.orderOf(read.cursor, read.page.links, before).across === 'rising') return { kind: 'flip' };
    before = lastTime(read.page.links, before);
    const unseen = trail.fresh(read.page.links).filter((link) => !(segment.upTo && isAbove(link, segment.upTo)));
    const end = unseen.findIndex((link) => String(link.id) === segment.last);
    const { fresh, reached } = takeNew(run, end === -1 ? unseen : unseen.slice(0, end + 1));
    links.push(...fresh);
    if (reached || end !== -1) return { kind: 'links', links };
    // Only when links were added "in the past" (a clock stepping back) or above the top segment.
    if (!read.page.nextCursor) return { kind: 'links', links };
    trail.follow(read.page.nextCursor);
    at = read.page.nextCursor;
  }
}

type Emission = { kind: 'left'; segments: Segment[] } | { kind: 'refused'; reason: string } | { kind: 'flip' };

/** Hands segments out from the oldest (the end of the list) up, within the poll's limits. */
async function emitOldestFirst(run: PollRun, segments: Segment[]): Promise<Emission> {
  const left = [...segments];
  while (left.length > 0 && run.linksLeft > 0) {
    const segment = left[left.length - 1]!;
    let links = segment.links?.filter((link) => !run.isHandled(link));
    if (links === undefined) {
      const startedAt = run.requests;
      const again = await reread(run, segment);
      if (again.kind === 'stop') {
        if (again.from !== undefined) {
          // Only empty pages so far (they carry a cursor, so they are not the end): go on from there.
          segment.cursor = again.from;
        } else if (run.requests > startedAt && (segment.cursor === undefined || startedAt === 0)) {
          // A segment that could not be read to its end in a whole poll (many links came above the top
          // page since, or its last link is gone and the list goes on without a handled one): a walk from
          // the top takes the rest over; it stops at the mark, right below what was handed out.
          left.length = 0;
        }
        break;
      }
      if (again.kind !== 'links') return again;
      links = again.links;
    }
    const oldestFirst = [...links].reverse();
    const handedOut = oldestFirst.slice(0, run.linksLeft);
    run.emit(handedOut);
    if (handedOut.length < oldestFirst.length) {
      // The rest waits for the next poll: the segment is read again down to the new mark.
      delete segment.links;
      break;
    }
    left.pop();
  }
  return { kind: 'left', segments: left };
}

/**
 * The page after the one that met the mark, kept by the last poll to learn the order: new dated links on
 * it, or rising times, show a list served oldest first.
 */
async function probeOrder(run: PollRun, cursor: string): Promise<{ learned: 'flip' | 'falling' | 'unknown' | 'stop'; next?: string }> {
  let read = await run.read(cursor, true);
  // An empty page that carries a cursor is not the end: the probe follows it while the poll has room.
  while (read.kind === 'page' && read.page.links.length === 0 && read.page.nextCursor && read.page.nextCursor !== read.cursor) {
    const next = read.page.nextCursor;
    read = await run.read(next, false);
    if (read.kind === 'stop') return { learned: 'unknown', next };
  }
  if (read.kind === 'stop') return { learned: 'stop' };
  if (read.kind === 'refused') return { learned: 'unknown' };
  const evidence = orderEvidence(read.page.links);
  if (evidence === 'both') throw noOrderError();
  if (evidence === 'rising' || newAfterHandled(run, read.page.links)) return { learned: 'flip' };
  // Links without a readable date below the mark are still new.
  run.emit(read.page.links.filter((link) => !run.isHandled(link)).reverse().slice(0, run.linksLeft));
  if (evidence === 'falling') return { learned: 'falling' };
  // Nothing to tell the order by on this page either: the next probe looks one page further.
  return read.page.nextCursor ? { learned: 'unknown', next: read.page.nextCursor } : { learned: 'unknown' };
}

/** One poll of a newest-first list with a mark. */
export async function pollNewestFirst(
  run: PollRun,
  backlog: NewLinksCatchUp | undefined,
  order: ListOrder | undefined,
  probe?: string,
): Promise<NewestFirstOutcome> {
  let falling = false;
  // Where the next poll looks for the order, when this one could not learn it.
  let probing: string | undefined;
  const done = (complete: boolean, catchUp?: NewLinksCatchUp): NewestFirstOutcome => {
    const outcome: NewestFirstOutcome = { kind: 'done', falling, complete };
    if (catchUp) outcome.catchUp = catchUp;
    if (probing !== undefined && !falling && order === undefined) outcome.probe = probing;
    return outcome;
  };

  // While the order is unknown, a probe walks on below the mark one page per poll until the pages show
  // it; the walks of such a poll do not start another probe.
  const probed = probe !== undefined && order === undefined;
  if (probed) {
    const { learned, next } = await probeOrder(run, probe);
    if (learned === 'flip') return { kind: 'flip' };
    probing = learned === 'stop' ? probe : next;
    falling = learned === 'falling';
    if (learned === 'stop' || !run.canRead()) return done(backlog === undefined, backlog);
  }
  const learn = (): boolean => order === undefined && !falling && !probed;

  if (backlog) {
    let pending: Segment[] | undefined = backlog.segments.map((segment) => ({ ...segment }));
    if (backlog.walkCursor !== undefined) {
      // The walk down to the mark goes on where the last poll stopped; nothing is handed out before it ends.
      const known = pending.flatMap((segment) => (segment.cursor === undefined ? [] : [segment.cursor]));
      const walkedTo = backlog.walkedTo === undefined ? undefined : Date.parse(backlog.walkedTo);
      const walked = await walkDown(run, backlog.walkCursor, true, new Trail(known), order, walkedTo, learn());
      if (walked.kind === 'flip') return walked;
      if (walked.kind === 'refused') {
        run.notice(`The service refused the saved cursor of the backlog (${walked.reason}); the trigger starts again from the top. Nothing is lost: the mark had not moved.`);
        pending = undefined;
      } else {
        falling = walked.falling;
        pending.push(...walked.segments);
        if (walked.kind === 'stopped') return done(false, goOn(pending, walked));
        probing = walked.probe ?? probing;
      }
    }
    if (pending !== undefined) {
      const emitted = await emitOldestFirst(run, pending);
      if (emitted.kind === 'flip') return emitted;
      if (emitted.kind === 'refused') {
        run.notice(`The service refused a saved cursor of the backlog (${emitted.reason}); the trigger goes on from the top. Nothing is lost or repeated: the mark stands after the last link handed out.`);
      } else if (emitted.segments.length > 0) {
        return done(false, { segments: stored(emitted.segments) });
      }
    }
    // The backlog is handed out (or its cursors were refused): an ordinary walk from the top follows, if
    // this poll has room left.
    if (!run.canRead() || run.linksLeft === 0) return done(pending !== undefined);
  }

  const walked = await walkDown(run, undefined, false, new Trail(), order ?? (falling ? 'newest-first' : undefined), undefined, learn());
  if (walked.kind === 'flip') return walked;
  if (walked.kind === 'refused') throw new Error('unreachable: the top of the list is read without a cursor');
  falling ||= walked.falling;
  if (walked.kind === 'stopped') {
    // The mark lies beyond this poll: the gap is unknown, so nothing is handed out yet.
    return walked.next === undefined ? done(false) : done(false, goOn(walked.segments, walked));
  }
  probing = walked.probe ?? probing;
  const emitted = await emitOldestFirst(run, walked.segments);
  if (emitted.kind === 'flip') return emitted;
  if (emitted.kind === 'refused') {
    run.notice(`The service refused a cursor it had just handed out (${emitted.reason}); the rest of this backlog is found again from the top by the next poll.`);
    return done(false);
  }
  if (emitted.segments.length > 0) return done(false, { segments: stored(emitted.segments) });
  return done(true);
}
