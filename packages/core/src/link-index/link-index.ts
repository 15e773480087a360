/**
 * The link index (docs/api-contract.md, "The same link"; docs/architecture.md): the service has no lookup
 * by URL or slug, so every lookup walks the list. The index makes that walk happen once per run: the first
 * lookup walks the account (newest first), stopping early only when it found what it needs; later lookups are
 * answered from memory and go on walking from where the last one stopped; the run's own creates, updates and
 * deletes keep it current, and links others created meanwhile are picked up with the new-links algorithm.
 *
 * It answers "none" only after the whole account was read (or refreshed since). When a lookup's time runs
 * out first, it throws SearchIncompleteError — never "none" — and keeps what it read, so the next attempt
 * goes on from there. A host decides the lifetime: n8n one execution (one client), Zapier a snapshot in
 * z.cache per connection (snapshot(), LinkIndex.fromSnapshot).
 */
import { DeadlineError, NotFoundError, RateLimitError, SearchIncompleteError } from '../errors';
import type { NewLinksState, PollNewLinksResult } from '../polls/new-links';
import { checkNewLinksState } from '../polls/new-links';
import { WalkGuard } from '../reading/walk-guard';
import { compareEarliestFirst, compareLinksEarliestFirst, isSameLink, unusableReason, type SameLinkCriteria } from './same-link';
import { isLinkAtShortUrl, type ShortUrlTarget } from './short-url';
import type { Link, LinkCreated, LinkPage } from '../types';
import { entryFromLine, entryLine, entryOf, keyFingerprint, slugKey, targetFingerprint, type IndexEntry } from './entry';

/** What a lookup asks for. */
export interface IndexQuery {
  criteria: SameLinkCriteria;
  /** The link this short URL names (slug and domain rule). */
  shortUrl?: ShortUrlTarget;
  /** Only links that redirect (not paused, blocked or expired) — Find or Create unless asked otherwise. */
  reusableOnly?: boolean;
  /** How many links are wanted: 1 for a unique answer, the find's limit otherwise. */
  want: number;
  /** Fetch links created since the last refresh whatever its age (the service just said one exists). */
  refresh?: boolean;
}

/** The I/O of one lookup, bound to its call's time budget by the client. */
export interface IndexIo {
  readPage(cursor: string | undefined): Promise<LinkPage>;
  /** One poll of the new-links algorithm (first call: state undefined, sets the mark). */
  pollNew(state: NewLinksState | undefined): Promise<PollNewLinksResult>;
  /** The link as it is now; undefined when it no longer exists. */
  getLink(id: string): Promise<Link | undefined>;
  now(): number;
  /** Ms left in the call's budget. */
  timeLeftMs(): number;
  /** The call's whole limit, for messages. */
  limitMs: number;
}

export interface LinkIndexOptions {
  /**
   * Before a lookup answers "none" (or fewer than wanted) from a fully read index, links created since the
   * last refresh are fetched if it is older than this (ms). Default 120 000; 0 = every time.
   */
  refreshAfterMs?: number;
  /** Time a walk leaves to the rest of the call (confirming, creating, saving), ms. */
  reserveMs?: number;
  /**
   * Whether what was read outlives the call: 'stored' (a snapshot the host keeps, Zapier: running the step
   * again goes on), 'run' (the client's next lookups in this run go on; a new run starts over), or 'none'.
   * Default 'run'.
   */
  resumable?: 'stored' | 'run' | 'none';
  /**
   * A "none" (fewer links than wanted) is said only by an index whose walk of the account began at most
   * this long ago (ms), or one whose walk ended in this client: an older one is read anew first. Targets
   * and slugs changed in the dashboard are invisible to an index until it reads the account again, and a
   * "none" from such an index makes Find or Create create a duplicate. Undefined: no bound (the index
   * lives one run).
   */
  noneMaxAgeMs?: number;
}

/** The index as stored between invocations (Zapier's z.cache). Plain JSON. */
export interface LinkIndexSnapshot {
  v: 1;
  /** When the walk of the account started (epoch ms): the index's age. */
  builtAt: number;
  refreshedAt: number;
  complete: boolean;
  /** Where the walk goes on (the client's page token); null before the first page or when complete. */
  cursor: string | null;
  walked: number;
  newLinks: NewLinksState | null;
  /** One line per link (entry.ts). */
  entries: string[];
}

const DEFAULT_REFRESH_AFTER_MS = 120_000;

/**
 * How far before a found link a walk of a newest-first list reads on for an earlier twin of it
 * (docs/guarantees.md, "Many callers"): a Find or Create that missed a link and made a twin did so within
 * its own call, which lasts at most 5 minutes on every host (n8n's default limit; Zapier 25 s, MCP 120 s),
 * plus the list's lag.
 */
export const TWIN_HORIZON_MS = 6 * 60_000;

/** Entries in the order that makes the first the link (compareEarliestFirst); an unreadable createdAt last. */
const earliestEntryFirst = (a: IndexEntry, b: IndexEntry): number =>
  compareEarliestFirst({ at: a.at || Number.MAX_SAFE_INTEGER, id: a.id }, { at: b.at || Number.MAX_SAFE_INTEGER, id: b.id });

/** Find or Create's look for twins: the ids the list showed this index, and its same links, earliest first. */
export interface TwinLook {
  listed: ReadonlySet<string>;
  same: Array<{ id: string; at: number; link?: Link }>;
}

export class LinkIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly byTarget = new Map<string, Set<string>>();
  private readonly bySlug = new Map<string, string>();
  private cursor: string | undefined;
  private complete = false;
  private walked = 0;
  private newLinks: NewLinksState | undefined;
  private builtAt = 0;
  private refreshedAt = 0;
  private readonly refreshAfterMs: number;
  private readonly reserveMs: number;
  private readonly resumable: 'stored' | 'run' | 'none';
  /** The walk's memory within this client (across calls: the page token's trail, continuation.ts). */
  private guard = new WalkGuard('the search');
  private readonly noneMaxAgeMs: number | undefined;
  /** The walk of the account ended in this client (its pages are as fresh as a walk can be). */
  private walkEndedHere = false;
  /** Pages the current lookup read (a message says "run it again" only when it moved on). */
  private pagesThisCall = 0;
  /** Ids of links read from the list by this index (a walk or a refresh), as opposed to only remembered. */
  private readonly listedIds = new Set<string>();
  /** createdAt (ms) of the first and the last link the current walk read: which way the list runs, and how far down it is. */
  private walkFirstAt: number | undefined;
  private walkLastAt: number | undefined;

  constructor(options: LinkIndexOptions = {}) {
    this.refreshAfterMs = options.refreshAfterMs ?? DEFAULT_REFRESH_AFTER_MS;
    this.reserveMs = options.reserveMs ?? 0;
    this.resumable = options.resumable ?? 'run';
    this.noneMaxAgeMs = options.noneMaxAgeMs;
  }

  /** An index from a stored snapshot; undefined when the snapshot is unreadable or older than maxAgeMs. */
  static fromSnapshot(snapshot: unknown, now: number, maxAgeMs: number, options: LinkIndexOptions = {}): LinkIndex | undefined {
    if (!isSnapshot(snapshot) || now - snapshot.builtAt > maxAgeMs || snapshot.builtAt > now + 60_000) return undefined;
    const index = new LinkIndex(options);
    for (const line of snapshot.entries) {
      const entry = entryFromLine(line);
      if (entry) index.add(entry);
    }
    index.cursor = snapshot.cursor ?? undefined;
    index.complete = snapshot.complete;
    index.walked = snapshot.walked;
    index.newLinks = checkNewLinksState(snapshot.newLinks ?? undefined);
    index.builtAt = snapshot.builtAt;
    index.refreshedAt = snapshot.refreshedAt;
    return index;
  }

  snapshot(): LinkIndexSnapshot {
    return {
      v: 1,
      builtAt: this.builtAt,
      refreshedAt: this.refreshedAt,
      complete: this.complete,
      cursor: this.cursor ?? null,
      walked: this.walked,
      newLinks: this.newLinks ?? null,
      entries: [...this.entries.values()].map(entryLine),
    };
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether the whole account has been read. */
  get isComplete(): boolean {
    return this.complete;
  }

  /** A link this run created, read or changed. */
  put(record: Link | LinkCreated): void {
    this.add(entryOf(record));
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.unlink(entry);
  }

  /** Drops an entry from the lookups by target and slug (not from the entries). */
  private unlink(entry: IndexEntry): void {
    this.byTarget.get(entry.target)?.delete(entry.id);
    if (this.bySlug.get(slugKey(entry.domain, entry.slug)) === entry.id) this.bySlug.delete(slugKey(entry.domain, entry.slug));
  }

  private add(entry: IndexEntry): void {
    const before = this.entries.get(entry.id);
    if (before) this.unlink(before);
    // A link read again keeps its place among the entries: a stored index then changes only where its
    // entry did (stored-index.ts rewrites only the chunks whose text changed).
    this.entries.set(entry.id, entry);
    let ids = this.byTarget.get(entry.target);
    if (!ids) this.byTarget.set(entry.target, (ids = new Set()));
    ids.add(entry.id);
    this.bySlug.set(slugKey(entry.domain, entry.slug), entry.id);
  }

  /**
   * The links that answer the query, earliest first (the first is the link Find or Create settles on), at
   * most `want`; fewer (or none) only when the whole account was read. Throws SearchIncompleteError when the
   * time ran out first.
   */
  async lookup(query: IndexQuery, io: IndexIo): Promise<Link[]> {
    const found: Link[] = [];
    const seen = new Set<string>();
    this.pagesThisCall = 0;
    // While reading on for earlier twins, every match counts, not only the first `want`.
    let collectAll = false;
    const consider = async (entries: IndexEntry[]): Promise<void> => {
      for (const entry of entries.sort(earliestEntryFirst)) {
        if (!collectAll && found.length >= query.want) return;
        if (seen.has(entry.id) || !this.entryMatches(entry, query, io.now())) continue;
        seen.add(entry.id);
        const link = await this.confirm(entry, query, io);
        if (link) found.push(link);
      }
    };
    try {
      if (!this.newLinks) await this.start(io);
      await consider(this.candidates(query));
      for (;;) {
        await this.walkOn(query, io, found, consider);
        if (found.length >= query.want || !this.tooOldForNone(io.now())) break;
        this.walkAnew(io.now());
      }
      if (found.length > 0 && !this.complete && !isUniqueQuery(query)) {
        collectAll = true;
        await this.walkPastTwins(found, io, consider);
      }
      if (found.length < query.want && (query.refresh === true || io.now() - this.refreshedAt >= this.refreshAfterMs)) {
        await consider(await this.refresh(io));
      }
    } catch (error) {
      // Out of time (or of the rate budget) part way: what was read stays; the answer is not "none".
      if (error instanceof DeadlineError && !error.outcomeUnknown) throw this.incomplete(io);
      if (error instanceof RateLimitError && found.length < query.want) throw this.incomplete(io, error.retryAfterMs);
      throw error;
    }
    return found.sort(compareLinksEarliestFirst).slice(0, query.want);
  }

  /**
   * A newest-first walk that found a link reads on until it is TWIN_HORIZON_MS older than the earliest one
   * found (or the account's end): a twin made at the same moment by another call (which missed this one)
   * comes first by the rule every caller applies. An oldest-first list shows the earlier twin first anyway.
   */
  private async walkPastTwins(found: Link[], io: IndexIo, consider: (entries: IndexEntry[]) => Promise<void>): Promise<void> {
    const earliest = (): number => Math.min(...found.map((link) => Date.parse(String(link.createdAt))).filter(Number.isFinite));
    const newestFirst = (): boolean => this.walkFirstAt === undefined || this.walkLastAt === undefined || this.walkLastAt <= this.walkFirstAt;
    while (!this.complete && newestFirst() && this.walkLastAt !== undefined && this.walkLastAt >= earliest() - TWIN_HORIZON_MS) {
      if (io.timeLeftMs() < this.reserveMs) return;
      await this.readNextPage(io, consider);
    }
  }

  /**
   * Find or Create's look for twins after a create of this client (creating/converge.ts): the links created
   * since the last refresh are read from the list (the new-links algorithm, one request when there are
   * few); `listed` holds the ids of every link the list has shown this index (this look's and earlier ones:
   * a concurrent call's look may have read this one's link first). `same`: every link the index holds that is the same as `criteria`
   * (reusable ones only when asked), earliest first.
   */
  async lookForTwins(criteria: SameLinkCriteria, reusableOnly: boolean, io: IndexIo): Promise<TwinLook> {
    if (!this.newLinks) await this.start(io);
    await this.refresh(io);
    const query: IndexQuery = { criteria, reusableOnly, want: Number.POSITIVE_INFINITY };
    const same = this.candidates(query)
      .filter((entry) => this.entryMatches(entry, query, io.now()))
      .sort(earliestEntryFirst)
      .map((entry) => ({ id: entry.id, at: entry.at, ...(entry.link ? { link: entry.link } : {}) }));
    return { listed: this.listedIds, same };
  }

  /** The record of a link the index holds, as it is now (a GET); undefined when it is gone. */
  async current(id: string, io: IndexIo): Promise<Link | undefined> {
    const link = await io.getLink(id);
    if (link) this.add(entryOf(link));
    else this.remove(id);
    return link;
  }

  /** Reads on from where the walk stopped until enough links are found or the account's end. */
  private async walkOn(query: IndexQuery, io: IndexIo, found: Link[], consider: (entries: IndexEntry[]) => Promise<void>): Promise<void> {
    while (found.length < query.want && !this.complete) {
      if (io.timeLeftMs() < this.reserveMs) throw this.incomplete(io);
      await this.readNextPage(io, consider);
    }
  }

  /** One more page of the walk of the account. */
  private async readNextPage(io: IndexIo, consider: (entries: IndexEntry[]) => Promise<void>): Promise<void> {
    const page = await io.readPage(this.cursor);
    this.pagesThisCall++;
    // A walk the service leads in a circle ends here (PagingCircleError), never as "the end" (a "none"
    // from an index that was not read to its end would let Find or Create make a duplicate).
    this.walked += this.guard.page(this.cursor, page.links, page.nextCursor).length;
    const fresh = page.links.map((link) => entryOf(link));
    for (const entry of fresh) {
      this.add(entry);
      this.listedIds.add(entry.id);
      if (entry.at > 0) {
        this.walkFirstAt ??= entry.at;
        this.walkLastAt = entry.at;
      }
    }
    await consider(fresh);
    if (!page.nextCursor) {
      this.complete = true;
      this.walkEndedHere = true;
    } else this.cursor = page.nextCursor;
  }

  /** Whether a "none" from this index would rest on a reading of the account older than noneMaxAgeMs. */
  private tooOldForNone(now: number): boolean {
    return this.noneMaxAgeMs !== undefined && this.complete && !this.walkEndedHere && now - this.builtAt > this.noneMaxAgeMs;
  }

  /**
   * Starts the walk of the account again from the top. The entries stay (each is replaced when its link is
   * read again, and every hit is confirmed by its record), so a step that runs out of time loses nothing.
   */
  private walkAnew(now: number): void {
    this.complete = false;
    this.cursor = undefined;
    this.walked = 0;
    this.builtAt = now;
    this.guard = new WalkGuard('the search');
    this.walkFirstAt = this.walkLastAt = undefined;
  }

  /** The mark of the new-links algorithm, taken before the walk, so that links created during it are caught. */
  private async start(io: IndexIo): Promise<void> {
    const first = await io.pollNew(undefined);
    this.newLinks = first.state;
    this.builtAt = this.refreshedAt = io.now();
  }

  /** Links created since the last refresh (the new-links algorithm: one request when there are none). */
  private async refresh(io: IndexIo): Promise<IndexEntry[]> {
    const fresh: IndexEntry[] = [];
    for (;;) {
      if (io.timeLeftMs() < this.reserveMs) throw this.incomplete(io);
      const result = await io.pollNew(this.newLinks);
      this.newLinks = result.state;
      for (const link of result.links) {
        const entry = entryOf(link);
        this.add(entry);
        this.listedIds.add(entry.id);
        fresh.push(entry);
      }
      if (result.complete) break;
    }
    this.refreshedAt = io.now();
    return fresh;
  }

  private candidates(query: IndexQuery): IndexEntry[] {
    const ids =
      query.shortUrl !== undefined
        ? [...this.slugHolders(query.shortUrl.slug)]
        : query.criteria.slug !== undefined && query.criteria.domain !== undefined
          ? [this.bySlug.get(slugKey(query.criteria.domain === null ? null : query.criteria.domain.toLowerCase(), query.criteria.slug))]
          : query.criteria.targetUrl !== undefined
            ? [...(this.byTarget.get(targetFingerprint(query.criteria.targetUrl)) ?? [])]
            : [...this.entries.keys()];
    return ids.flatMap((id) => (id === undefined ? [] : [this.entries.get(id)!].filter(Boolean)));
  }

  /** Every entry with this slug, on any domain (the short URL's host decides which one it names). */
  private *slugHolders(slug: string): Iterable<string> {
    for (const [key, id] of this.bySlug) if (key.slice(key.indexOf('|') + 1) === slug) yield id;
  }

  /** The cheap test on what the entry holds; the record decides in confirm(). */
  private entryMatches(entry: IndexEntry, query: IndexQuery, now: number): boolean {
    const { criteria } = query;
    if (criteria.targetUrl !== undefined && entry.target !== targetFingerprint(criteria.targetUrl)) return false;
    if (criteria.slug !== undefined && entry.slug !== criteria.slug) return false;
    if (criteria.domain !== undefined && entry.domain !== (criteria.domain === null ? null : criteria.domain.toLowerCase())) return false;
    if (query.shortUrl !== undefined && (entry.slug !== query.shortUrl.slug || entry.short !== keyFingerprint(query.shortUrl.key))) return false;
    if (query.reusableOnly && unusableReason(entry, now) !== undefined) return false;
    return true;
  }

  /** The record of a candidate: the one read in this run, or (from a stored snapshot) one GET, as it is now. */
  private async confirm(entry: IndexEntry, query: IndexQuery, io: IndexIo): Promise<Link | undefined> {
    let link = entry.link;
    if (!link) {
      try {
        link = await io.getLink(entry.id);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        link = undefined;
      }
      if (!link) {
        this.remove(entry.id);
        return undefined;
      }
      this.add(entryOf(link));
    }
    if (!isSameLink(link, query.criteria)) return undefined;
    if (query.shortUrl !== undefined && !isLinkAtShortUrl(link, query.shortUrl)) return undefined;
    if (query.reusableOnly && unusableReason(link, io.now()) !== undefined) return undefined;
    return link;
  }

  private incomplete(io: IndexIo, retryAfterMs?: number): SearchIncompleteError {
    const seconds = Math.round(io.limitMs / 100) / 10;
    const read = this.walked.toLocaleString('en-US');
    const why = retryAfterMs !== undefined ? 'before the rate limit ran out' : `within the time limit of ${seconds} s`;
    // "Run it again" only where running again goes on (a stored index that moved on in this call); the
    // walk's end is never in doubt here: a circle ends with PagingCircleError instead.
    const next =
      this.resumable === 'stored' && this.pagesThisCall > 0
        ? 'Run it again: the search goes on where it stopped (what was read is kept), and finishes after a few attempts.'
        : this.resumable === 'stored'
          ? 'No page could be read in this attempt, so the search did not move on; what was read before is kept, and it goes on once the service answers again. Choose the link by its ID to need no search.'
          : this.resumable === 'run'
            ? 'The next lookups of this run go on where it stopped (what was read is kept); a new run starts over. Choose the link by its ID to need no search.'
            : 'Each attempt reads the account from the start again, so choose the link by its ID, which needs no search.';
    return new SearchIncompleteError({
      title: 'Search not finished',
      message: `The search for the link could not finish: ${read} of the account's links were read ${why} without reaching the end, so it cannot tell whether a matching link exists. Nothing was created or changed. ${next}`,
      linksSearched: this.walked,
      resumable: this.resumable !== 'none',
    });
  }
}

function isSnapshot(value: unknown): value is LinkIndexSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<LinkIndexSnapshot>;
  return s.v === 1 && typeof s.builtAt === 'number' && typeof s.refreshedAt === 'number' && typeof s.complete === 'boolean' && Array.isArray(s.entries) && typeof s.walked === 'number';
}

/** A query only one link can answer (a slug on a domain, a short URL): no twins to look past. */
function isUniqueQuery(query: IndexQuery): boolean {
  return query.shortUrl !== undefined || (query.criteria.slug !== undefined && query.criteria.domain !== undefined);
}
