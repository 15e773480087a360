/**
 * TODAY'S BEHAVIOUR FOR THE BENCHMARK ONLY: the first new-links algorithm (packages/core/src/new-links.ts
 * before issue 14), kept verbatim apart from its imports so that `npm run bench` measures the new trigger
 * beside the old one in the same run. Not used by any package.
 *
 * The new-links algorithm behind the polling triggers. Pages newest-first down to a high-water mark
 * and returns the links created since, oldest → newest.
 *
 * State (plain JSON, stored by the host as it is):
 * - mark: the newest createdAt already handled and the ids handled at that instant (links can share a
 *   millisecond; a later link with the same createdAt but another id is still new). null when the
 *   account had no links at the first run: then every link is new. A walk stops at the first handled
 *   link (or the first older one): in the document's order (createdAt desc, then id desc, ids growing
 *   with creation) everything after it is handled, so a quiet poll costs one request.
 * - mark.edgeId: after a resumed segment, the unhandled link right above the handled region. A walk from
 *   the top that meets it has reached the mark even when its page budget ends exactly there (else a
 *   backlog of exactly maxPages pages would never be recognised as caught up).
 * - resume: set when a bounded call (maxPages) ran out of pages before reaching the mark. The gap between
 *   the mark and the pages seen is unknown, so nothing is emitted then; the next call walks on from the
 *   saved cursor down to the mark, emits that oldest segment and moves the mark up to the boundary; the
 *   call after that starts from the top again. Emitting oldest-first this way never skips a link.
 *   `resume.initialising`: the first run met more links sharing the newest instant than its page budget
 *   held; the next calls go on collecting their ids (emitting nothing), so none is later taken for new.
 *
 * Robust to links created or deleted between and during pages (keyset cursors do not shift; ids seen in
 * one call are de-duplicated for services whose cursors do), and to equal timestamps.
 */
import { InputError, type Link, type LinkPage } from '@shortlink/core';

export interface NewLinksMark {
  /** createdAt of the newest handled link. */
  createdAt: string;
  /** Ids of the handled links with exactly that createdAt. */
  ids: string[];
  /** Id of the unhandled link right above the handled region (set when a resumed segment completes). */
  edgeId?: string;
}

export interface NewLinksResume {
  /** Cursor of the page after the last one seen. */
  cursor: string;
  /** createdAt of the last (oldest) link seen before the cursor. */
  boundaryCreatedAt?: string;
  /** Id of that link. */
  boundaryId?: string;
  /** The first run is still collecting the ids that share the newest instant (no links are emitted). */
  initialising?: true;
}

export interface NewLinksState {
  version: 1;
  mark: NewLinksMark | null;
  resume?: NewLinksResume;
}

export interface PollNewLinksOptions {
  /** Links per page, 1 to 100; default 100. */
  pageSize?: number;
  /** Pages fetched per call at most; default 10. */
  maxPages?: number;
}

export interface PollNewLinksResult {
  /** Oldest → newest. */
  links: Link[];
  state: NewLinksState;
  /** True when the call caught up with the newest link (no backlog left behind). */
  complete: boolean;
}

export type LinkPageFetcher = (request: { limit: number; cursor?: string }) => Promise<LinkPage>;

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 10;

function time(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Checks a stored state; a broken one fails loudly instead of re-emitting or skipping links. */
export function checkNewLinksState(state: unknown): NewLinksState | undefined {
  if (state === undefined || state === null) return undefined;
  const fail = (what: string): never => {
    throw new InputError('state', `The stored new-links state is not valid (${what}); reset it to start over from the newest link.`);
  };
  if (typeof state !== 'object' || Array.isArray(state)) return fail('not an object');
  const s = state as Record<string, unknown>;
  if (s.version !== 1) return fail('unknown version');
  const mark = s.mark;
  if (mark !== null) {
    if (typeof mark !== 'object' || mark === null) return fail('mark must be an object or null');
    const m = mark as Record<string, unknown>;
    if (Number.isNaN(time(m.createdAt)) || !isStringArray(m.ids)) return fail('mark needs createdAt and ids');
    if (m.edgeId !== undefined && typeof m.edgeId !== 'string') return fail('mark edgeId must be text');
  }
  if (s.resume !== undefined) {
    const r = s.resume as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || typeof r.cursor !== 'string' || r.cursor === '') return fail('resume needs a cursor');
    if (r.boundaryCreatedAt !== undefined && Number.isNaN(time(r.boundaryCreatedAt))) return fail('resume boundary is not a timestamp');
    if (r.initialising !== undefined && (r.initialising !== true || mark === null)) return fail('resume of a first run needs a mark');
  }
  return state as NewLinksState;
}

function isNew(link: Link, mark: NewLinksMark | null, markIds: Set<string>): boolean {
  if (!mark) return true;
  const t = time(link.createdAt);
  const m = time(mark.createdAt);
  if (Number.isNaN(t)) return true;
  return t > m || (t === m && !markIds.has(String(link.id)));
}

/** The link lies strictly below the mark: everything after it is old. */
function isBelowMark(link: Link, mark: NewLinksMark | null): boolean {
  return mark !== null && time(link.createdAt) < time(mark.createdAt);
}

/** Newest createdAt among the links and the ids at that instant (merged with the old mark's). */
function markOf(links: readonly Link[], at: string | undefined, previous: NewLinksMark | null): NewLinksMark | null {
  let newest = at;
  if (newest === undefined) {
    for (const link of links) {
      const t = time(link.createdAt);
      if (!Number.isNaN(t) && (newest === undefined || t > time(newest))) newest = link.createdAt;
    }
  }
  if (newest === undefined) return previous ? { ...previous } : null;
  const t = time(newest);
  const ids = new Set<string>();
  if (previous && time(previous.createdAt) === t) for (const id of previous.ids) ids.add(id);
  for (const link of links) if (time(link.createdAt) === t) ids.add(String(link.id));
  return { createdAt: newest, ids: [...ids] };
}

function oldestFirst(links: Link[]): Link[] {
  // Reverse of the newest-first listing; the stable sort only repairs a service that orders loosely.
  return links.reverse().sort((a, b) => (time(a.createdAt) || 0) - (time(b.createdAt) || 0));
}

interface Walk {
  links: Link[];
  /** Reached the mark or the end of the list. */
  reached: boolean;
  nextCursor: string | null;
  lastCreatedAt: string | undefined;
  lastId: string | undefined;
}

/** Pages from `cursor` (undefined = the top) collecting new links until the mark, the end or maxPages. */
async function walk(
  fetchPage: LinkPageFetcher,
  cursor: string | undefined,
  mark: NewLinksMark | null,
  pageSize: number,
  maxPages: number,
): Promise<Walk> {
  const markIds = new Set(mark?.ids ?? []);
  const seen = new Set<string>();
  const links: Link[] = [];
  let lastCreatedAt: string | undefined;
  let lastId: string | undefined;
  let next: string | undefined = cursor;
  for (let page = 0; page < maxPages; page++) {
    const request: { limit: number; cursor?: string } = { limit: pageSize };
    if (next !== undefined) request.cursor = next;
    const result = await fetchPage(request);
    for (const link of result.links) {
      const id = String(link.id);
      if (seen.has(id)) continue; // a shifting cursor showed it twice
      // The first handled link: in the document's order everything after it is handled too.
      if (isBelowMark(link, mark) || !isNew(link, mark, markIds)) return { links, reached: true, nextCursor: null, lastCreatedAt, lastId };
      lastCreatedAt = link.createdAt;
      lastId = id;
      seen.add(id);
      links.push(link);
      // Everything after the edge link is handled already.
      if (mark?.edgeId === id && time(link.createdAt) === time(mark.createdAt)) {
        return { links, reached: true, nextCursor: null, lastCreatedAt, lastId };
      }
    }
    if (!result.nextCursor) return { links, reached: true, nextCursor: null, lastCreatedAt, lastId };
    next = result.nextCursor;
  }
  return { links, reached: false, nextCursor: next ?? null, lastCreatedAt, lastId };
}

/**
 * First run: remember the newest instant and every id at it, without emitting anything. Only when whole
 * pages share that instant does the next page matter; if the page budget ends inside such a run, the
 * next call goes on collecting from the saved cursor (still emitting nothing).
 */
async function initialise(
  fetchPage: LinkPageFetcher,
  pageSize: number,
  maxPages: number,
  from?: { mark: NewLinksMark; cursor: string },
): Promise<PollNewLinksResult> {
  let cursor: string | undefined = from?.cursor;
  let newest: string | undefined = from?.mark.createdAt;
  const ids: string[] = from ? [...from.mark.ids] : [];
  const done = (): PollNewLinksResult => ({
    links: [],
    state: { version: 1, mark: newest === undefined ? null : { createdAt: newest, ids } },
    // A continued first run did not look at the top again: links may have arrived meanwhile.
    complete: from === undefined,
  });
  for (let page = 0; page < maxPages; page++) {
    const request: { limit: number; cursor?: string } = { limit: pageSize };
    if (cursor !== undefined) request.cursor = cursor;
    const result = await fetchPage(request);
    for (const link of result.links) {
      if (newest === undefined) newest = link.createdAt;
      if (time(link.createdAt) !== time(newest)) return done();
      if (!ids.includes(String(link.id))) ids.push(String(link.id));
    }
    if (!result.nextCursor || newest === undefined) return done();
    cursor = result.nextCursor;
  }
  return {
    links: [],
    state: { version: 1, mark: { createdAt: newest!, ids }, resume: { cursor: cursor!, initialising: true } },
    complete: false,
  };
}

/** Where a bounded walk stopped: the last link it saw. */
function resumeAfter(walked: Walk): Omit<NewLinksResume, 'cursor'> | undefined {
  if (walked.lastCreatedAt === undefined || walked.lastId === undefined) return undefined;
  return { boundaryCreatedAt: walked.lastCreatedAt, boundaryId: walked.lastId };
}

/**
 * One poll. Pure apart from `fetchPage`: the same pages give the same answer. The first call
 * (state undefined) sets the mark and returns no links; a quiet poll costs one request.
 */
export async function pollNewLinksWith(
  fetchPage: LinkPageFetcher,
  storedState: NewLinksState | undefined,
  options: PollNewLinksOptions = {},
): Promise<PollNewLinksResult> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const state = checkNewLinksState(storedState);
  if (!state) return initialise(fetchPage, pageSize, maxPages);

  if (state.resume?.initialising && state.mark) {
    return initialise(fetchPage, pageSize, maxPages, { mark: state.mark, cursor: state.resume.cursor });
  }

  if (state.resume) {
    // Finish the oldest segment first: from the saved cursor down to the mark.
    const segment = await walk(fetchPage, state.resume.cursor, state.mark, pageSize, maxPages);
    if (!segment.reached) {
      const resume = resumeAfter(segment) ?? state.resume;
      return { links: [], state: { version: 1, mark: state.mark, resume: { ...resume, cursor: segment.nextCursor! } }, complete: false };
    }
    // Everything below the boundary is now handled: the mark moves up to the boundary instant.
    const mark = markOf(segment.links, state.resume.boundaryCreatedAt, state.mark);
    if (mark && state.resume.boundaryId !== undefined && state.resume.boundaryCreatedAt !== undefined) mark.edgeId = state.resume.boundaryId;
    return { links: oldestFirst(segment.links), state: { version: 1, mark }, complete: false };
  }

  const top = await walk(fetchPage, undefined, state.mark, pageSize, maxPages);
  if (!top.reached) {
    // The gap down to the mark is unknown: emit nothing now rather than out of order or with a hole.
    const resume: NewLinksResume = { ...resumeAfter(top), cursor: top.nextCursor! };
    return { links: [], state: { version: 1, mark: state.mark, resume }, complete: false };
  }
  if (top.links.length === 0) return { links: [], state: { version: 1, mark: state.mark }, complete: true };
  const mark = markOf(top.links, undefined, state.mark);
  return { links: oldestFirst(top.links), state: { version: 1, mark }, complete: true };
}
