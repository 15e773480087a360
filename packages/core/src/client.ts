/**
 * The client both hosts call (docs/architecture.md). Knows no host: requests go through the Transport,
 * waits through the injected sleep. Every method checks its input before any request and throws only
 * ShortLinkError subclasses, scrubbed of the API key.
 */
import { ConflictError, InputError, ShortLinkError, UnexpectedResponseError, scrubError } from './errors';
import { unexpectedBody } from './error-from-response';
import {
  checkCreateInput,
  checkHttpUrl,
  checkPageSize,
  checkPositiveInteger,
  checkUpdateInput,
  isRecord,
  linkPath,
} from './input-checks';
import { PollNewLinksOptions, PollNewLinksResult, NewLinksState, pollNewLinksWith } from './new-links';
import { normalizeRecord, readDomains, readLinkPage } from './page-reader';
import { RequestExecutor } from './request-executor';
import type { Sleep, Transport, TransportResponse } from './transport';
import type {
  Account,
  CreateLinkInput,
  Domain,
  FindLinksOptions,
  IterateLinksOptions,
  Link,
  LinkCreated,
  LinkPage,
  LinkStats,
  ListLinksOptions,
  UpdateLinkInput,
} from './types';
import { linkMatches } from './find-links';
import { isLinkAtShortUrl, readShortUrl } from './short-url';

export interface ClientOptions {
  /** 'https://short.example.com', without /api/v1; a trailing slash is tolerated. */
  baseUrl: string;
  /** Used by the standalone transport only; scrubbed from every error. */
  apiKey?: string;
  transport: Transport;
  sleep: Sleep;
  /** Epoch ms; default Date.now. */
  now?: () => number;
  /** Jitter source for backoff; default Math.random. */
  random?: () => number;
  /** Cap on any single wait (pacing or Retry-After); default 60 000. Above it: RateLimitError. */
  maxWaitMs?: number;
  /** Retries after a failed attempt; default 3. */
  maxRetries?: number;
}

export interface FindOrCreateOptions {
  /** Pages scanned when looking for an existing link; default 20. */
  maxPages?: number;
}

export interface FindByShortUrlOptions {
  /** Pages (100 links each) scanned for the slug; default 20. */
  maxPages?: number;
}

export interface ShortLinkClient {
  createLink(input: CreateLinkInput): Promise<LinkCreated>;
  getLink(id: string): Promise<Link>;
  listLinks(options?: ListLinksOptions): Promise<LinkPage>;
  iterateLinks(options?: IterateLinksOptions): AsyncIterable<Link>;
  updateLink(id: string, patch: UpdateLinkInput): Promise<Link>;
  deleteLink(id: string): Promise<void>;
  getLinkStats(id: string): Promise<LinkStats>;
  listDomains(): Promise<Domain[]>;
  getAccount(): Promise<Account>;
  findLinks(options: FindLinksOptions): Promise<Link[]>;
  /** The link a short URL names (default domain or custom domain), or undefined when none of the account has it. */
  findLinkByShortUrl(shortUrl: string, options?: FindByShortUrlOptions): Promise<Link | undefined>;
  findOrCreateLink(input: CreateLinkInput, options?: FindOrCreateOptions): Promise<{ link: Link | LinkCreated; created: boolean }>;
  pollNewLinks(state: NewLinksState | undefined, options?: PollNewLinksOptions): Promise<PollNewLinksResult>;
}

const DEFAULT_FIND_LIMIT = 100;
const DEFAULT_FIND_MAX_PAGES = 20;

function checkNonNegative(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InputError(field, `${field} must be a number of at least 0.`);
  }
  return value;
}

function objectBody<T>(response: TransportResponse, what: string, required: readonly string[]): T {
  const body = response.body;
  if (!isRecord(body)) throw unexpectedBody(response, what);
  const missing = required.filter((key) => !(key in body));
  if (missing.length > 0) {
    throw unexpectedBody(response, what, `the answer lacks ${missing.join(', ')}.`);
  }
  return normalizeRecord<T>(body);
}

export function createClient(options: ClientOptions): ShortLinkClient {
  if (!isRecord(options)) throw new InputError('options', 'createClient needs an options object with baseUrl, transport and sleep.');
  if (typeof options.transport !== 'function') {
    throw new InputError('transport', 'transport is required: a function that sends a TransportRequest and returns a TransportResponse.');
  }
  if (typeof options.sleep !== 'function') {
    throw new InputError('sleep', 'sleep is required: a function (ms) => Promise<void>.');
  }
  const secrets = typeof options.apiKey === 'string' && options.apiKey !== '' ? [options.apiKey] : [];
  const maxWaitMs = checkNonNegative(options.maxWaitMs, 'maxWaitMs') ?? 60_000;
  const maxRetries = checkNonNegative(options.maxRetries, 'maxRetries') ?? 3;
  const executor = new RequestExecutor({
    baseUrl: options.baseUrl,
    transport: options.transport,
    sleep: options.sleep,
    now: options.now ?? (() => Date.now()),
    random: options.random ?? Math.random,
    maxWaitMs,
    maxRetries: Math.floor(maxRetries),
  });

  /** Runs a method body; whatever escapes is a ShortLinkError without the key. */
  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ShortLinkError) throw scrubError(error, secrets);
      const wrapped = new UnexpectedResponseError({
        title: 'Unexpected failure',
        message: `Unexpected failure in the short-link client: ${error instanceof Error ? error.message : String(error)}`,
      });
      throw scrubError(wrapped, secrets);
    }
  }

  async function listLinks(listOptions: ListLinksOptions = {}): Promise<LinkPage> {
    const limit = checkPageSize(listOptions.limit, 'limit');
    const cursor = listOptions.cursor;
    if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) {
      throw new InputError('cursor', 'cursor must be the non-empty nextCursor of a previous page.');
    }
    const response = await executor.send({ method: 'GET', path: '/links', query: { limit, cursor } });
    const page = readLinkPage(response.body, response.status);
    if (!page) throw unexpectedBody(response, 'a page of links', isRecord(response.body) ? 'the answer holds no list of links.' : undefined);
    return page;
  }

  async function findLinks(find: FindLinksOptions): Promise<Link[]> {
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
    const maxPages = checkPositiveInteger(find.maxPages, 'maxPages') ?? DEFAULT_FIND_MAX_PAGES;
    return scanLinks((link) => linkMatches(link, find), limit, maxPages);
  }

  /** Walks pages of 100 until `limit` links matched, the list ended or maxPages were read. */
  async function scanLinks(matches: (link: Link) => boolean, limit: number, maxPages: number): Promise<Link[]> {
    const found: Link[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = await listLinks(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
      for (const link of result.links) {
        if (matches(link)) {
          found.push(link);
          if (found.length >= limit) return found;
        }
      }
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return found;
  }

  async function createLink(input: CreateLinkInput): Promise<LinkCreated> {
    const body = checkCreateInput(input);
    const response = await executor.send({ method: 'POST', path: '/links', body });
    return objectBody<LinkCreated>(response, 'the created link', ['id', 'shortUrl']);
  }

  return {
    createLink: (input) => guarded(() => createLink(input)),

    getLink: (id) =>
      guarded(async () => {
        const response = await executor.send({ method: 'GET', path: linkPath(id) });
        return objectBody<Link>(response, 'a link', ['id']);
      }),

    listLinks: (listOptions) => guarded(() => listLinks(listOptions)),

    iterateLinks(iterateOptions: IterateLinksOptions = {}): AsyncIterable<Link> {
      const pageSize = checkPageSize(iterateOptions.pageSize, 'pageSize') ?? 100;
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: string | undefined;
          // Bounded by the service: each page moves the cursor on; a repeated cursor ends the walk.
          for (;;) {
            const page: LinkPage = await guarded(() => listLinks(cursor === undefined ? { limit: pageSize } : { limit: pageSize, cursor }));
            for (const link of page.links) yield link;
            if (!page.nextCursor || page.nextCursor === cursor) return;
            cursor = page.nextCursor;
          }
        },
      };
    },

    updateLink: (id, patch) =>
      guarded(async () => {
        const path = linkPath(id);
        const body = checkUpdateInput(patch);
        const response = await executor.send({ method: 'PATCH', path, body });
        return objectBody<Link>(response, 'the updated link', ['id']);
      }),

    deleteLink: (id) =>
      guarded(async () => {
        await executor.send({ method: 'DELETE', path: linkPath(id), notFoundAfterUncertainAttemptIsSuccess: true });
      }),

    getLinkStats: (id) =>
      guarded(async () => {
        const response = await executor.send({ method: 'GET', path: linkPath(id, '/stats') });
        const stats = objectBody<LinkStats>(response, 'click statistics', ['totalClicks']);
        return typeof stats.linkId === 'number' ? { ...stats, linkId: String(stats.linkId) } : stats;
      }),

    listDomains: () =>
      guarded(async () => {
        const response = await executor.send({ method: 'GET', path: '/domains' });
        const domains = readDomains(response.body, response.status);
        if (!domains) throw unexpectedBody(response, 'a list of domains', isRecord(response.body) ? 'the answer holds no list.' : undefined);
        return domains;
      }),

    getAccount: () =>
      guarded(async () => {
        const response = await executor.send({ method: 'GET', path: '/me' });
        return objectBody<Account>(response, 'the account', []);
      }),

    findLinks: (find) => guarded(() => findLinks(find)),

    findLinkByShortUrl: (shortUrl, byUrlOptions = {}) =>
      guarded(async () => {
        const target = readShortUrl(shortUrl);
        const maxPages = checkPositiveInteger(byUrlOptions?.maxPages, 'maxPages') ?? DEFAULT_FIND_MAX_PAGES;
        // (domain, slug) is unique, so the first link the URL names is the only one: stop there.
        const [link] = await scanLinks((candidate) => isLinkAtShortUrl(candidate, target), 1, maxPages);
        return link;
      }),

    findOrCreateLink: (input, findOptions = {}) =>
      guarded(async () => {
        const wanted = checkCreateInput(input);
        const maxPages = checkPositiveInteger(findOptions.maxPages, 'maxPages') ?? DEFAULT_FIND_MAX_PAGES;
        const criteria: FindLinksOptions = { targetUrl: wanted.targetUrl, domain: wanted.domain ?? null, limit: 1, maxPages };
        if (wanted.slug !== undefined) criteria.slug = wanted.slug;
        const [existing] = await findLinks(criteria);
        if (existing) return { link: existing, created: false };
        try {
          return { link: await createLink(wanted), created: true };
        } catch (error) {
          // The slug may have been taken meanwhile (or lie beyond the pages scanned): if it is the same
          // link, that is the answer; otherwise the conflict stands.
          if (!(error instanceof ConflictError) || wanted.slug === undefined) throw error;
          const [holder] = await findLinks({ slug: wanted.slug, domain: wanted.domain ?? null, maxPages });
          if (holder && linkMatches(holder, { targetUrl: wanted.targetUrl })) return { link: holder, created: false };
          throw error;
        }
      }),

    pollNewLinks: (state, pollOptions = {}) =>
      guarded(async () => {
        const pageSize = checkPageSize(pollOptions.pageSize, 'pageSize');
        const maxPages = checkPositiveInteger(pollOptions.maxPages, 'maxPages');
        const bounded: PollNewLinksOptions = {};
        if (pageSize !== undefined) bounded.pageSize = pageSize;
        if (maxPages !== undefined) bounded.maxPages = maxPages;
        return pollNewLinksWith((request) => listLinks(request), state, bounded);
      }),
  };
}
