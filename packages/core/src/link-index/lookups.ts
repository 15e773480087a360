/**
 * Every lookup of one client goes through its one link index (link-index.ts): Find, a short URL, Find or
 * Create's search and the create reconciler's index upkeep. The index is made, or loaded from the host's
 * snapshot (read then, with loadSnapshot), at the first lookup; the walk reads pages through the service API within the call's budget.
 */
import type { CallBudget } from '../http/call-budget';
import { DeadlineError, InputError, NotFoundError, RateLimitError } from '../errors';
import { isRecord } from '../basics/json';
import { checkHttpUrl, checkPositiveInteger } from '../forms/input-checks';
import { pollNewLinksWith } from '../polls/new-links';
import type { ServiceApi } from '../endpoints/service-api';
import type { LinkIndexClientOptions } from '../client/options';
import type { FindLinksOptions, Link, LinkPage, ListLinksOptions } from '../types';
import { LinkIndex, type IndexIo, type IndexQuery, type LinkIndexSnapshot } from './link-index';
import { isSameLink, unusableReason, type SameLinkCriteria } from './same-link';
import { readShortUrl } from './short-url';

const DEFAULT_FIND_LIMIT = 100;
/** A stored index older than this is read anew (it cannot see targets changed in the dashboard). */
const DEFAULT_INDEX_MAX_AGE_MS = 6 * 3600_000;
/** Time an index walk leaves to the rest of its call (a confirming GET, the create, the host's saving). */
const INDEX_RESERVE_MS = 5_000;
const DEFAULT_REFRESH_AFTER_MS = 120_000;

export interface LookupSettings {
  now: () => number;
  callTimeoutMs: number;
  indexOptions: LinkIndexClientOptions;
}

export class Lookups {
  private index: LinkIndex | undefined;
  /** The index being made (its stored snapshot read first, when the host loads it lazily). */
  private making: Promise<LinkIndex> | undefined;
  /**
   * Pages the index's first new-links poll read (its mark): the walk that follows starts with the same top
   * page, which is then not asked for twice.
   */
  private markPages: Map<string, LinkPage> | undefined;

  constructor(
    private readonly api: ServiceApi,
    private readonly settings: LookupSettings,
  ) {}

  /** The index as it stands, for the host to store; undefined before any lookup. */
  snapshot(): LinkIndexSnapshot | undefined {
    return this.index?.snapshot();
  }

  /** A link this client made or changed: later lookups of the run find it at once. */
  remember(link: Link): void {
    this.index?.put(link);
  }

  forget(id: string): void {
    this.index?.remove(id);
  }

  async findLinks(find: FindLinksOptions, budget: CallBudget): Promise<Link[]> {
    if (!isRecord(find) || (find.targetUrl === undefined && find.slug === undefined)) {
      throw new InputError('targetUrl', 'findLinks needs targetUrl or slug (or both) to search by.');
    }
    if (find.targetUrl !== undefined) checkHttpUrl(find.targetUrl, 'targetUrl');
    if (find.slug !== undefined && (typeof find.slug !== 'string' || find.slug === '')) {
      throw new InputError('slug', 'slug must be a non-empty string.');
    }
    if (find.domain !== undefined && find.domain !== null && (typeof find.domain !== 'string' || find.domain === '')) {
      throw new InputError('domain', 'domain must be a hostname, or null for the default domain.');
    }
    // A slug is unique per domain: with both, at most one link can match.
    const uniqueHit = find.slug !== undefined && find.domain !== undefined;
    const limit = uniqueHit ? 1 : (checkPositiveInteger(find.limit, 'limit') ?? DEFAULT_FIND_LIMIT);
    const criteria: IndexQuery['criteria'] = {};
    if (find.targetUrl !== undefined) criteria.targetUrl = find.targetUrl as string;
    if (find.slug !== undefined) criteria.slug = find.slug;
    if (find.domain !== undefined) criteria.domain = find.domain;
    return this.lookup({ criteria, want: limit, reusableOnly: find.activeOnly === true }, budget);
  }

  async findLinkByShortUrl(shortUrl: string, budget: CallBudget): Promise<Link | undefined> {
    const target = readShortUrl(shortUrl);
    // (domain, slug) is unique: the first link the URL names is the only one.
    const [link] = await this.lookup({ criteria: {}, shortUrl: target, want: 1 }, budget);
    return link;
  }

  /** A lookup through the index, within the call's budget. */
  async lookup(query: IndexQuery, budget: CallBudget): Promise<Link[]> {
    return this.oneAtATime(async () => (await this.linkIndex()).lookup(query, this.indexIo(budget)));
  }

  /**
   * Find or Create's look for twins after a create (creating/converge.ts): whether the list shows
   * `ownId` yet, and the link the same links settle on (compareEarliestFirst) — read again with a GET when
   * it is not this client's own, so that a link deleted meanwhile is never the answer.
   */
  async lookForTwins(criteria: SameLinkCriteria, reusableOnly: boolean, ownId: string, budget: CallBudget): Promise<{ shown: boolean; first: Link | undefined; twins: number }> {
    return this.oneAtATime(async () => {
      const index = await this.linkIndex();
      const io = this.indexIo(budget);
      const look = await index.lookForTwins(criteria, reusableOnly, io);
      const shown = look.listed.has(ownId);
      for (const candidate of look.same) {
        if (candidate.id === ownId) return { shown, first: candidate.link, twins: look.same.length - 1 };
        const link = await index.current(candidate.id, io);
        if (link && isSameLink(link, criteria) && (!reusableOnly || unusableReason(link, io.now()) === undefined)) return { shown, first: link, twins: look.same.length - 1 };
      }
      return { shown, first: undefined, twins: 0 };
    });
  }

  /**
   * The index's reads run one at a time: two lookups of one client (an MCP server's concurrent tool calls)
   * would otherwise follow the same continuation twice, which the walk guard rightly takes for a circle.
   */
  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private queue: Promise<unknown> = Promise.resolve();

  /** Made at the first lookup; lookups running together wait for the same one. */
  private linkIndex(): Promise<LinkIndex> {
    if (this.index) return Promise.resolve(this.index);
    this.making ??= this.makeIndex().finally(() => (this.making = undefined));
    return this.making;
  }

  private async makeIndex(): Promise<LinkIndex> {
    const { indexOptions, callTimeoutMs, now } = this.settings;
    const loaded = indexOptions.loadSnapshot ? await indexOptions.loadSnapshot() : { snapshot: indexOptions.snapshot, resumable: indexOptions.resumable };
    const settings = {
      refreshAfterMs: indexOptions.refreshAfterMs ?? DEFAULT_REFRESH_AFTER_MS,
      reserveMs: Math.min(INDEX_RESERVE_MS, Math.floor(callTimeoutMs * 0.2)),
      resumable: loaded.resumable ?? 'run',
      ...(indexOptions.noneMaxAgeMs === undefined ? {} : { noneMaxAgeMs: indexOptions.noneMaxAgeMs }),
    } as const;
    this.index =
      (loaded.snapshot !== undefined && loaded.snapshot !== null
        ? LinkIndex.fromSnapshot(loaded.snapshot, now(), indexOptions.maxAgeMs ?? DEFAULT_INDEX_MAX_AGE_MS, settings)
        : undefined) ?? new LinkIndex(settings);
    return this.index;
  }

  private indexIo(budget: CallBudget): IndexIo {
    const { now } = this.settings;
    return {
      readPage: (cursor) => {
        const key = pageKey(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
        const read = this.markPages?.get(key);
        if (read) {
          this.markPages!.delete(key);
          return Promise.resolve(read);
        }
        return this.api.readPage(cursor, budget);
      },
      pollNew: (state) => this.pollForMark(state, budget),
      getLink: async (id) => {
        try {
          return await this.api.getLink(id, budget);
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      },
      now,
      timeLeftMs: () => budget.deadlineAt - now(),
      limitMs: budget.limitMs,
    };
  }

  /** The index's new-links poll: its first one (the mark) keeps the pages it read for the walk after it. */
  private pollForMark(state: Parameters<IndexIo['pollNew']>[0], budget: CallBudget): ReturnType<IndexIo['pollNew']> {
    const memo = state === undefined ? (this.markPages = new Map()) : undefined;
    return pollNewLinksWith(
      async (request) => {
        const page = await this.api.listLinks(request, budget);
        memo?.set(pageKey(request), page);
        return page;
      },
      state,
      {
        // The mark costs the top page only (which the walk then reuses); a first run that needs more
        // (ties at the newest instant) finishes in the refreshes, as a trigger's would over polls.
        ...(memo ? { maxPages: 1 } : {}),
        shouldStop: () => budget.deadlineAt - this.settings.now() < INDEX_RESERVE_MS,
        isOutOfBudget: (error) => (error instanceof DeadlineError && !error.outcomeUnknown) || error instanceof RateLimitError,
        now: () => this.api.serviceNow(),
      },
    );
  }
}

function pageKey(request: ListLinksOptions): string {
  return `${request.limit ?? ''}|${request.cursor ?? ''}`;
}
