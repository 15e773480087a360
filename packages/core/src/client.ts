/**
 * The client both hosts call (docs/architecture.md). Knows no host: requests go through the Transport,
 * waits through the injected sleep. Every method checks its input before any request and throws only
 * ShortLinkError subclasses, scrubbed of the API key.
 */
import { normalizeBaseUrl } from './http/base-url';
import { callBudget, type CallBudget } from './http/call-budget';
import { createWindowStart, findOwnCreate } from './creating/create-reconciler';
import {
  ConflictError,
  DeadlineError,
  InputError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  redact,
  scrubError,
} from './errors';
import { statusText, unexpectedBody } from './http/error-from-response';
import {
  checkCreateInput,
  checkHttpUrl,
  checkPageSize,
  checkPositiveInteger,
  checkUpdateInput,
  linkPath,
} from './forms/input-checks';
import { isRecord } from './basics/json';
import { LinkPager } from './reading/link-pager';
import { type LinkClicksState, type PollLinkClicksOptions, type PollLinkClicksResult, pollLinkClicksWith } from './polls/link-clicks';
import { type NewLinksState, type PollNewLinksOptions, type PollNewLinksResult, pollNewLinksWith } from './polls/new-links';
import { normalizeRecord, readDomainList } from './reading/page-reader';
import { readAccount, readUpdateAnswer, unwrapRecord } from './reading/record-readers';
import { RequestExecutor } from './http/request-executor';
import type { PacingState } from './http/pacer';
import { newServiceProfile, type ServiceProfile } from './reading/service-profile';
import { credentialFingerprint } from './polls/state-owner';
import type { Sleep, Transport, TransportResponse } from './http/transport';
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
import { LinkIndex, type IndexIo, type IndexQuery, type LinkIndexSnapshot } from './link-index/link-index';
import { completeCreatedLink } from './creating/new-link';
import { isSameLink, unusableReason } from './link-index/same-link';
import { readShortUrl } from './link-index/short-url';

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
  /** Whole-request limit of each attempt (connect to last byte), ms; default 30 000. */
  requestTimeoutMs?: number;
  /**
   * Time limit of one client call with all its requests, waits, retries and lookups, ms; default 300 000.
   * Hosts with a hard step limit set theirs (Zapier: well under its 30 s).
   */
  callTimeoutMs?: number;
  /**
   * One limit shared by every call of this client, when a host runs several calls in one unit of work with a
   * hard limit (Zapier: a step with its 30 s). A call ends by whichever comes first: its own callTimeoutMs or
   * this; a call that starts after it fails at once with DeadlineError. `limitMs` is the whole limit, for messages.
   */
  sharedDeadline?: { atMs: number; limitMs: number };
  /** Cancels every call of the client (n8n: the execution's stop signal). */
  signal?: AbortSignal;
  /** Largest answer body read, bytes; default 10 MB. */
  maxResponseBytes?: number;
  /** The link index every lookup of this client shares (link-index/link-index.ts). */
  linkIndex?: LinkIndexClientOptions;
  /**
   * What an earlier client on the key learned of the rate limit (its pacingState(), e.g. from a host's cache):
   * this client starts paced instead of blind. Checked; anything unusable is ignored.
   */
  pacingState?: unknown;
}

export interface LinkIndexClientOptions {
  /** A snapshot stored by an earlier invocation (client.linkIndexSnapshot()); ignored when older than maxAgeMs. */
  snapshot?: unknown;
  /** Age (since its walk began) after which a stored snapshot is dropped and the account read anew; default 6 h. */
  maxAgeMs?: number;
  /** Links created by others are fetched before a "none" when the last refresh is older than this; default 120 000. */
  refreshAfterMs?: number;
  /** See LinkIndexOptions.resumable; default 'run', 'stored' with a snapshot store. */
  resumable?: 'stored' | 'run' | 'none';
}

export interface FindOrCreateOptions {
  /**
   * Also hand out a paused, blocked or expired link as "found" (default false: such a link does not
   * redirect, so a new one is created beside it).
   */
  reuseInactive?: boolean;
}

export interface PollNewLinksCallOptions extends PollNewLinksOptions {
  /**
   * The poll sends no request after this many ms, and none while the rate limit's window is down to its
   * last sixth: it ends there and keeps what it learned for the next poll. Default 30 000. (The client's
   * callTimeoutMs stays the hard limit of the whole call.)
   */
  timeLimitMs?: number;
}

export interface PollLinkClicksCallOptions extends PollLinkClicksOptions {
  /** As for pollNewLinks: no request after this many ms or in the rate limit's last sixth. Default 30 000. */
  timeLimitMs?: number;
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
  /**
   * The link a short URL names (default domain or custom domain), or undefined when none of the account has
   * it — said only after the whole account was searched (SearchIncompleteError otherwise).
   */
  findLinkByShortUrl(shortUrl: string): Promise<Link | undefined>;
  findOrCreateLink(input: CreateLinkInput, options?: FindOrCreateOptions): Promise<{ link: Link | LinkCreated; created: boolean }>;
  /**
   * One poll of the new-links algorithm (packages/core/README.md): the links created since the last poll,
   * oldest → newest, and the state to keep. The state records the account it belongs to (a GET /me on the
   * first poll and whenever the credential changed).
   */
  pollNewLinks(state: NewLinksState | undefined, options?: PollNewLinksCallOptions): Promise<PollNewLinksResult>;
  /**
   * One poll of the Link Clicks trigger (packages/core/README.md): the milestones reached or the clicks
   * counted since the last poll, for the links in scope, and the state to keep (bound to the account like
   * pollNewLinks' state).
   */
  pollLinkClicks(state: LinkClicksState | undefined, options: PollLinkClicksCallOptions): Promise<PollLinkClicksResult>;
  /** What this client has learned so far about the service's choices where the spec is silent (a copy). */
  serviceProfile(): ServiceProfile;
  /** The link index as it stands, to be stored and passed back as linkIndex.snapshot; undefined before any lookup. */
  linkIndexSnapshot(): LinkIndexSnapshot | undefined;
  /** What this client learned of the rate limit, for the next client on the key (ClientOptions.pacingState). */
  pacingState(): PacingState;
}

const DEFAULT_FIND_LIMIT = 100;
/** A stored index older than this is read anew (it cannot see targets changed in the dashboard). */
const DEFAULT_INDEX_MAX_AGE_MS = 6 * 3600_000;
/** Time an index walk leaves to the rest of its call (a confirming GET, the create, the host's saving). */
const INDEX_RESERVE_MS = 5_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** A poll starts no request after this long (it goes on at the next poll). */
const DEFAULT_POLL_TIME_LIMIT_MS = 30_000;
/** A poll leaves this share of the rate limit's window to the key's other work. */
const POLL_RATE_RESERVE = 1 / 6;
/** Pages read when looking for a create's own link (its window is seconds wide: one page, nearly always). */
const OWN_CREATE_MAX_PAGES = 5;
/** After a lost answer the service may still be working on the request: look once more after this. */
const OWN_CREATE_SETTLE_MS = 1_500;
/** Rounds of the lookup (each retrying its requests) before the outcome is called unknown. */
const OWN_CREATE_LOOKUP_ROUNDS = 3;
/** Ids remembered as created by this client (so that a lookup never hands out one link twice). */
const CLAIMED_IDS_KEPT = 10_000;

/** Statuses and failures after which a create may or may not have been stored. */
function createOutcomeUnknown(error: unknown): boolean {
  if (error instanceof ServerError) return true;
  if (error instanceof NetworkError) return error.outcomeUnknown;
  // A 2xx whose body could not be read (too large, cut off, not JSON): stored, but unreadable. A 3xx is
  // also "unexpected", but a redirect processed nothing.
  return error instanceof UnexpectedResponseError && (error.status === undefined || (error.status >= 200 && error.status < 300));
}

/** After these the service may still be processing the request (nobody answered for it). */
function mayStillBeProcessing(error: unknown): boolean {
  if (error instanceof ServerError) return error.status === 504;
  return error instanceof NetworkError;
}

function checkNonNegative(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InputError(field, `${field} must be a number of at least 0.`);
  }
  return value;
}

function checkPositiveNumber(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InputError(field, `${field} must be a number greater than 0.`);
  }
  return value;
}

function objectBody<T>(response: TransportResponse, what: string, required: readonly string[]): T {
  // A service that wraps its records ({ data: { id, … } }) is read the same.
  const body = unwrapRecord(response.body, required).record;
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
  // The key as pasted and as sent (hosts trim it): a service that echoes either must not show it.
  const rawKey = typeof options.apiKey === 'string' ? options.apiKey : '';
  const secrets = [...new Set([rawKey, rawKey.trim()])].filter((secret) => secret !== '');
  const maxWaitMs = checkNonNegative(options.maxWaitMs, 'maxWaitMs') ?? 60_000;
  const maxRetries = checkNonNegative(options.maxRetries, 'maxRetries') ?? 3;
  const requestTimeoutMs = checkPositiveNumber(options.requestTimeoutMs, 'requestTimeoutMs') ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const callTimeoutMs = checkPositiveNumber(options.callTimeoutMs, 'callTimeoutMs') ?? DEFAULT_CALL_TIMEOUT_MS;
  const maxResponseBytes = checkPositiveNumber(options.maxResponseBytes, 'maxResponseBytes') ?? DEFAULT_MAX_RESPONSE_BYTES;
  const now = options.now ?? (() => Date.now());
  const executor = new RequestExecutor({
    baseUrl: options.baseUrl,
    transport: options.transport,
    sleep: options.sleep,
    now,
    random: options.random ?? Math.random,
    maxWaitMs,
    maxRetries: Math.floor(maxRetries),
    requestTimeoutMs,
    maxResponseBytes,
  });
  if (options.pacingState !== undefined) executor.pacer.restoreState(options.pacingState);
  const profile = newServiceProfile();
  const pager = new LinkPager(executor, profile);
  const claimed = new Set<string>();
  const claim = (id: string): void => {
    claimed.add(id);
    if (claimed.size > CLAIMED_IDS_KEPT) claimed.delete(claimed.values().next().value!);
  };

  /** Runs a method body within its own time budget; whatever escapes is a ShortLinkError without the key. */
  async function guarded<T>(run: (budget: CallBudget) => Promise<T>): Promise<T> {
    try {
      return await run(budgetOfCall());
    } catch (error) {
      if (error instanceof ShortLinkError) throw scrubError(error, secrets);
      const wrapped = new UnexpectedResponseError({
        title: 'Unexpected failure',
        message: `Unexpected failure in the short-link client: ${error instanceof Error ? error.message : String(error)}`,
      });
      throw scrubError(wrapped, secrets);
    }
  }

  /** The call's own limit, or the shared deadline when that comes first (then its whole limit names it). */
  function budgetOfCall(): CallBudget {
    const own = callBudget(now(), callTimeoutMs, options.signal);
    const shared = options.sharedDeadline;
    if (shared === undefined || shared.atMs >= own.deadlineAt) return own;
    return { deadlineAt: shared.atMs, limitMs: shared.limitMs, signal: options.signal };
  }

  /** One page; how a page is asked for and continued is the pager's (link-pager.ts). */
  function listLinks(listOptions: ListLinksOptions, budget: CallBudget): Promise<LinkPage> {
    return pager.page(listOptions, budget);
  }

  /**
   * PATCH, then the link as it is now: a service that answers with the changed fields only, or with 204,
   * applied the update all the same, so the link is read once more and the caller always gets all of it.
   */
  async function updateLink(id: string, patch: UpdateLinkInput, budget: CallBudget): Promise<Link> {
    const path = linkPath(id);
    const body = checkUpdateInput(patch);
    const response = await executor.send({ method: 'PATCH', path, body }, budget);
    const { kind, fields: partial } = readUpdateAnswer(response.body);
    profile.updateAnswer = kind;
    profile.updateStatus = response.status;
    if (kind === 'full link') return partial as unknown as Link;
    try {
      const read = await executor.send({ method: 'GET', path }, budget);
      return { ...partial, ...objectBody<Link>(read, 'the updated link', ['id']) };
    } catch (error) {
      if (error instanceof ShortLinkError) {
        error.message = `The update was applied (the service answered ${statusText(response.status)}), but reading the link afterwards failed: ${error.message}`;
      }
      throw error;
    }
  }

  async function findLinks(find: FindLinksOptions, budget: CallBudget): Promise<Link[]> {
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
    return lookup({ criteria, want: limit, reusableOnly: find.activeOnly === true }, budget);
  }

  /** The client's one link index, made (or loaded from the host's snapshot) at the first lookup. */
  let index: LinkIndex | undefined;
  function linkIndex(): LinkIndex {
    if (index) return index;
    const indexOptions = options.linkIndex ?? {};
    const settings = {
      refreshAfterMs: indexOptions.refreshAfterMs ?? 120_000,
      reserveMs: Math.min(INDEX_RESERVE_MS, Math.floor(callTimeoutMs * 0.2)),
      resumable: indexOptions.resumable ?? 'run',
    } as const;
    index =
      (indexOptions.snapshot !== undefined && indexOptions.snapshot !== null
        ? LinkIndex.fromSnapshot(indexOptions.snapshot, now(), indexOptions.maxAgeMs ?? DEFAULT_INDEX_MAX_AGE_MS, settings)
        : undefined) ?? new LinkIndex(settings);
    return index;
  }

  /**
   * Pages the index's first new-links poll read (its mark): the walk that follows starts with the same top
   * page, which is then not asked for twice.
   */
  let markPages: Map<string, LinkPage> | undefined;
  const pageKey = (request: ListLinksOptions): string => `${request.limit ?? ''}|${request.cursor ?? ''}`;

  /** A lookup through the index, within the call's budget. */
  function lookup(query: IndexQuery, budget: CallBudget): Promise<Link[]> {
    const io: IndexIo = {
      readPage: (cursor) => {
        const request = cursor === undefined ? { limit: 100 } : { limit: 100, cursor };
        const read = markPages?.get(pageKey(request));
        if (read) {
          markPages!.delete(pageKey(request));
          return Promise.resolve(read);
        }
        return listLinks(request, budget);
      },
      pollNew: (state) => {
        const memo = state === undefined ? (markPages = new Map()) : undefined;
        return pollNewLinksWith(
          async (request) => {
            const page = await listLinks(request, budget);
            memo?.set(pageKey(request), page);
            return page;
          },
          state,
          {
            // The mark costs the top page only (which the walk then reuses); a first run that needs more
            // (ties at the newest instant) finishes in the refreshes, as a trigger's would over polls.
            ...(memo ? { maxPages: 1 } : {}),
            shouldStop: () => budget.deadlineAt - now() < INDEX_RESERVE_MS,
            isOutOfBudget: (error) => (error instanceof DeadlineError && !error.outcomeUnknown) || error instanceof RateLimitError,
            now: serviceNow,
          },
        );
      },
      getLink: async (id) => {
        try {
          return objectBody<Link>(await executor.send({ method: 'GET', path: linkPath(id) }, budget), 'a link', ['id']);
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      },
      now,
      timeLeftMs: () => budget.deadlineAt - now(),
      limitMs: budget.limitMs,
    };
    return linkIndex().lookup(query, io);
  }

  /**
   * POST /links, exactly once as far as the account can tell (docs/guarantees.md): when the outcome is
   * unknown the account is asked for the link this request stored before anything is sent again.
   */
  async function createLink(input: CreateLinkInput, budget: CallBudget): Promise<LinkCreated | Link> {
    const body = checkCreateInput(input);
    // Time kept for the lookup after a lost answer: a request may not use up the whole call.
    const reserveMs = Math.min(10_000, Math.floor(budget.limitMs * 0.3));
    for (let attempt = 0; ; attempt++) {
      const sentAt = executor.now();
      let lost: ShortLinkError;
      let stored = false;
      try {
        const response = await executor.send({ method: 'POST', path: '/links', body, reserveMs }, budget);
        try {
          const created = objectBody<LinkCreated>(response, 'the created link', ['id', 'shortUrl']);
          claim(String(created.id));
          index?.put(completeCreatedLink(created, body));
          return created;
        } catch (unreadable) {
          // A 2xx means the link was stored; only its description was lost.
          lost = unreadable as ShortLinkError;
          stored = true;
        }
      } catch (error) {
        if (!createOutcomeUnknown(error)) throw error;
        lost = error as ShortLinkError;
      }

      const query = { wanted: body, windowStart: () => createWindowStart(sentAt, executor.serviceClock), claimed, maxPages: OWN_CREATE_MAX_PAGES };
      const readPage = (cursor: string | undefined) => listLinks(cursor === undefined ? { limit: 100 } : { limit: 100, cursor }, budget);
      // The lookup is the one way to tell a stored link from a failure, and reading is harmless: on a network
      // as bad as the one that lost the answer, it gets a few rounds of its own (each with its retries).
      const lookUp = async () => {
        for (let round = 1; ; round++) {
          try {
            return await findOwnCreate(readPage, query);
          } catch (lookupError) {
            const transient = lookupError instanceof ServerError || lookupError instanceof NetworkError || lookupError instanceof UnexpectedResponseError;
            if (!transient || round >= OWN_CREATE_LOOKUP_ROUNDS || budget.deadlineAt - now() < 2_000) throw lookupError;
            await executor.pauseWithin(OWN_CREATE_SETTLE_MS, budget);
          }
        }
      };
      let answer;
      try {
        answer = await lookUp();
        if (!answer.found && answer.complete && !stored && mayStillBeProcessing(lost)) {
          // Nobody answered for the request: give the service a moment to finish it, then look again.
          await executor.pauseWithin(OWN_CREATE_SETTLE_MS, budget);
          answer = await lookUp();
        }
      } catch (lookupError) {
        throw unknownCreateOutcome(lost, `looking for it failed (${(lookupError as Error).message.replace(/\.$/, '')})`);
      }
      if (answer.found) {
        claim(String(answer.found.id));
        index?.put(answer.found);
        return answer.found;
      }
      if (stored) throw unknownCreateOutcome(lost, 'the service said it was created, but it is not among the newest links');
      if (!answer.complete) throw unknownCreateOutcome(lost, 'too many links were created meanwhile to check them all');
      // The account shows that nothing was stored: sending it again cannot make a second link.
      if (attempt >= maxRetries || budget.deadlineAt - now() <= reserveMs) throw nothingStored(lost);
    }
  }

  /** The service's clock by its last Date header, moved on by ours; ours until a Date header was seen. */
  function serviceNow(): number {
    const clock = executor.serviceClock;
    return clock ? clock.serviceMs + (now() - clock.localMs) : now();
  }

  /** The window the service announced is down to its last sixth: leave that to the key's other work. */
  function rateBudgetLow(): boolean {
    const { remaining, resetAtMs, limit } = executor.pacer.snapshot();
    if (remaining === undefined || resetAtMs === undefined || limit === undefined || resetAtMs <= now()) return false;
    return remaining <= Math.ceil(limit * POLL_RATE_RESERVE);
  }

  /**
   * What every trigger poll shares: it sends no request after `timeLimitMs` or while the rate limit's window
   * is down to its last sixth, ends normally when its time or rate budget runs out after some requests,
   * reads times by the service's clock and binds its state to the account (GET /me when needed).
   */
  function pollControls(timeLimitMs: number, budget: CallBudget) {
    const stopAt = now() + timeLimitMs;
    return {
      shouldStop: () => now() >= stopAt || rateBudgetLow(),
      // Time or rate budget used up after some pages: the poll ends and keeps its place.
      isOutOfBudget: (error: unknown) => (error instanceof DeadlineError && !error.outcomeUnknown) || error instanceof RateLimitError,
      now: serviceNow,
      owner: {
        baseUrl: normalizeBaseUrl(options.baseUrl),
        credential: credentialFingerprint(rawKey.trim()),
        whoAmI: async () => {
          const account = objectBody<Account>(await executor.send({ method: 'GET', path: '/me' }, budget), 'the account', []);
          return typeof account.id === 'string' || typeof account.id === 'number' ? String(account.id) : undefined;
        },
      },
    };
  }

  async function getLink(id: string, budget: CallBudget): Promise<Link> {
    const response = await executor.send({ method: 'GET', path: linkPath(id) }, budget);
    return objectBody<Link>(response, 'a link', ['id']);
  }

  /** The create failed and the account shows it stored nothing: safe to run again. */
  function nothingStored(lost: ShortLinkError): ShortLinkError {
    lost.message = `${lost.message.replace(/ The outcome is unknown:.*$/, '')} Nothing was created (checked in the account), so it is safe to try again.`;
    return lost;
  }

  function unknownCreateOutcome(lost: ShortLinkError, why: string): UnknownOutcomeError | DeadlineError {
    const first = lost.message.replace(/ The outcome is unknown:.*$/, '');
    const message = `${first} The link may have been created, and ${why}. Look it up by its target URL (Find) before running this item again.`;
    if (lost instanceof DeadlineError) return deadlineErrorLike(lost, message);
    const init: { title: string; message: string; status?: number } = { title: 'Outcome unknown', message };
    if (lost.status !== undefined) init.status = lost.status;
    return new UnknownOutcomeError(init);
  }

  function deadlineErrorLike(error: DeadlineError, message: string): DeadlineError {
    return new DeadlineError({ title: error.title, message, limitMs: error.limitMs, outcomeUnknown: true });
  }

  return {
    createLink: (input) => guarded((budget) => createLink(input, budget)),

    getLink: (id) => guarded((budget) => getLink(id, budget)),

    listLinks: (listOptions) => guarded((budget) => listLinks(listOptions ?? {}, budget)),

    iterateLinks(iterateOptions: IterateLinksOptions = {}): AsyncIterable<Link> {
      const pageSize = checkPageSize(iterateOptions.pageSize, 'pageSize') ?? 100;
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: string | undefined;
          // Bounded by the service: each page moves the cursor on; a repeated cursor ends the walk.
          for (;;) {
            const page: LinkPage = await guarded((budget) => listLinks(cursor === undefined ? { limit: pageSize } : { limit: pageSize, cursor }, budget));
            for (const link of page.links) yield link;
            if (!page.nextCursor || page.nextCursor === cursor) return;
            cursor = page.nextCursor;
          }
        },
      };
    },

    updateLink: (id, patch) =>
      guarded(async (budget) => {
        const updated = await updateLink(id, patch, budget);
        // The run's own changes keep its index current (a new target or slug is found at once).
        index?.put(updated);
        return updated;
      }),

    deleteLink: (id) =>
      guarded(async (budget) => {
        // Any 2xx is a deletion (204, 200 with a body, 202); so is a 404 after an attempt that may have done it.
        const response = await executor.send({ method: 'DELETE', path: linkPath(id), notFoundAfterUncertainAttemptIsSuccess: true }, budget);
        if (response.status < 300) profile.deleteStatus = response.status;
        index?.remove(String(id));
      }),

    getLinkStats: (id) =>
      guarded(async (budget) => {
        const response = await executor.send({ method: 'GET', path: linkPath(id, '/stats') }, budget);
        const stats = objectBody<LinkStats>(response, 'click statistics', ['totalClicks']);
        return typeof stats.linkId === 'number' ? { ...stats, linkId: String(stats.linkId) } : stats;
      }),

    listDomains: () =>
      guarded(async (budget) => {
        const response = await executor.send({ method: 'GET', path: '/domains' }, budget);
        const read = readDomainList(response.body, response.status);
        if (!read) throw unexpectedBody(response, 'a list of domains', isRecord(response.body) ? 'the answer holds no list.' : undefined);
        if (read.hostnameField !== undefined) profile.domainHostnameField = read.hostnameField;
        return read.domains;
      }),

    getAccount: () =>
      guarded(async (budget) => {
        const response = await executor.send({ method: 'GET', path: '/me' }, budget);
        if (!isRecord(response.body)) throw unexpectedBody(response, 'the account');
        const read = readAccount(response.body);
        if (read.nameField !== undefined) profile.accountNameField = read.nameField;
        if (read.emailField !== undefined) profile.accountEmailField = read.emailField;
        if (read.envelope !== undefined) profile.accountEnvelope = read.envelope;
        return read.account;
      }),

    findLinks: (find) => guarded((budget) => findLinks(find, budget)),

    findLinkByShortUrl: (shortUrl) =>
      guarded(async (budget) => {
        const target = readShortUrl(shortUrl);
        // (domain, slug) is unique: the first link the URL names is the only one.
        const [link] = await lookup({ criteria: {}, shortUrl: target, want: 1 }, budget);
        return link;
      }),

    findOrCreateLink: (input, findOptions = {}) =>
      guarded(async (budget) => {
        const wanted = checkCreateInput(input);
        const reuseInactive = findOptions?.reuseInactive === true;
        const criteria: IndexQuery['criteria'] = { targetUrl: wanted.targetUrl, domain: wanted.domain ?? null };
        if (wanted.slug !== undefined) criteria.slug = wanted.slug;
        const [existing] = await lookup({ criteria, want: 1, reusableOnly: !reuseInactive }, budget);
        if (existing) return { link: existing, created: false };
        if (wanted.slug !== undefined) {
          // The slug is this target's, but its link does not redirect: a create would only be refused (409).
          const [holder] = await lookup({ criteria: { slug: wanted.slug, domain: wanted.domain ?? null }, want: 1 }, budget);
          if (holder && isSameLink(holder, criteria)) throw unusableSlugHolder(holder);
        }
        try {
          const created = await createLink(wanted, budget);
          return { link: created, created: true };
        } catch (error) {
          // The slug may have been taken meanwhile: if it is the same link, that is the answer; otherwise the
          // conflict stands.
          if (!(error instanceof ConflictError) || wanted.slug === undefined) throw error;
          const [holder] = await lookup({ criteria: { slug: wanted.slug, domain: wanted.domain ?? null }, want: 1, refresh: true }, budget);
          if (holder && isSameLink(holder, criteria) && (reuseInactive || unusableReason(holder, now()) === undefined)) return { link: holder, created: false };
          throw error;
        }
      }),

    pollNewLinks: (state, pollOptions = {}) =>
      guarded(async (budget) => {
        const pageSize = checkPageSize(pollOptions.pageSize, 'pageSize');
        const maxPages = checkPositiveInteger(pollOptions.maxPages, 'maxPages');
        const maxLinks = checkPositiveInteger(pollOptions.maxLinks, 'maxLinks');
        const timeLimitMs = checkPositiveNumber(pollOptions.timeLimitMs, 'timeLimitMs') ?? DEFAULT_POLL_TIME_LIMIT_MS;
        const bounded: PollNewLinksOptions = {};
        if (pageSize !== undefined) bounded.pageSize = pageSize;
        if (maxPages !== undefined) bounded.maxPages = maxPages;
        if (maxLinks !== undefined) bounded.maxLinks = maxLinks;
        if (pollOptions.since !== undefined) bounded.since = pollOptions.since;
        const result = await pollNewLinksWith((request) => listLinks(request, budget), state, { ...bounded, ...pollControls(timeLimitMs, budget) });
        // A notice may quote the service (a refused cursor's problem detail): the key never goes along.
        return { ...result, notices: result.notices.map((notice) => redact(notice, secrets)) };
      }),

    pollLinkClicks: (state, pollOptions) =>
      guarded(async (budget) => {
        const timeLimitMs = checkPositiveNumber(pollOptions?.timeLimitMs, 'timeLimitMs') ?? DEFAULT_POLL_TIME_LIMIT_MS;
        const watch: PollLinkClicksCallOptions = { ...(pollOptions as PollLinkClicksCallOptions) };
        delete watch.timeLimitMs;
        const fetchers = {
          fetchPage: (request: { limit: number; cursor?: string }) => listLinks(request, budget),
          // A chosen link that answers 404 was deleted: the poll goes on without it.
          fetchLink: async (id: string) => {
            try {
              return await getLink(id, budget);
            } catch (error) {
              if (error instanceof NotFoundError) return undefined;
              throw error;
            }
          },
        };
        const result = await pollLinkClicksWith(fetchers, state, { ...watch, ...pollControls(timeLimitMs, budget) });
        return { ...result, notices: result.notices.map((notice) => redact(notice, secrets)) };
      }),

    serviceProfile: () => ({ ...profile, ...(profile.paging ? { paging: { ...profile.paging } } : {}) }),

    linkIndexSnapshot: () => index?.snapshot(),
    pacingState: () => executor.pacer.exportState(),
  };

  /** Find or Create with a slug whose link is this very link but paused, blocked or expired. */
  function unusableSlugHolder(holder: Link): ConflictError {
    const why = unusableReason(holder, now());
    return new ConflictError({
      title: 'Link exists but does not redirect',
      message: `The link with the slug "${holder.slug}" (id ${holder.id}) already points to this target URL, but it is ${why}, so it was not reused, and a new link cannot have the same slug. Resume the link, choose another slug, or allow reusing inactive links.`,
      status: 409,
    });
  }
}
