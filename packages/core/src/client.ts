/**
 * The client both hosts call (docs/architecture.md): an assembler of named parts, each in its own room —
 * the endpoints (endpoints/service-api.ts), the exactly-once create (creating/), the lookups through one
 * link index (link-index/lookups.ts) and the trigger polls (polls/trigger-polls.ts) — with every method run
 * by the CallRunner (its own time budget; errors as ShortLinkError without the key). Knows no host:
 * requests go through the Transport, waits through the injected sleep.
 */
import { MAX_PAGE_SIZE } from './basics/page-size';
import { redactingEchoes } from './http/echo-redaction';
import type { CallBudget, CallScope } from './http/call-budget';
import { apiUrlFor } from './http/base-url';
import { privateShared, processShared } from './client/process-shared';
import { CallRunner } from './http/call-runner';
import { RequestExecutor } from './http/request-executor';
import type { PacingState } from './http/pacer';
import { checkPageSize } from './forms/input-checks';
import { ServiceApi } from './endpoints/service-api';
import { ExactlyOnceCreator } from './creating/exactly-once-creator';
import { findOrCreate, type FindOrCreateParts } from './creating/find-or-create';
import { Lookups } from './link-index/lookups';
import { TriggerPolls } from './polls/trigger-polls';
import { checkClientOptions, type ClientOptions } from './client/options';
import type { FindOrCreateOptions } from './creating/find-or-create';
import type { LinkIndexClientOptions } from './link-index/options';
import type { LinkIndexSnapshot } from './link-index/link-index';
import type { LinkClicksState, PollLinkClicksCallOptions, PollLinkClicksResult } from './polls/link-clicks';
import type { NewLinksState, PollNewLinksCallOptions, PollNewLinksResult } from './polls/new-links';
import type { ServiceProfile } from './reading/service-profile';
import { readAllLimits, readAllLinks, type ReadAllLinksOptions, type ReadAllLinksResult } from './reading/read-all';
import { WalkGuard } from './reading/walk-guard';
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

export type { ClientOptions, FindOrCreateOptions, LinkIndexClientOptions, PollLinkClicksCallOptions, PollNewLinksCallOptions };

export interface ShortLinkClient {
  /**
   * This client with a cancel signal and a deadline laid over every call (one run of an operation: the
   * host's Stop, an MCP cancellation, a tool's whole-call limit). Shares everything else with the client.
   */
  within(scope: CallScope): ShortLinkClient;
  createLink(input: CreateLinkInput): Promise<LinkCreated>;
  getLink(id: string): Promise<Link>;
  listLinks(options?: ListLinksOptions): Promise<LinkPage>;
  iterateLinks(options?: IterateLinksOptions): AsyncIterable<Link>;
  /**
   * "Return All": every link, newest first, within one budget for the whole walk (maxLinks, timeLimitMs);
   * a walk that reaches either ends there and says why (`stoppedEarly`). reading/read-all.ts.
   */
  readAllLinks(options?: ReadAllLinksOptions): Promise<ReadAllLinksResult>;
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

export function createClient(options: ClientOptions): ShortLinkClient {
  const settings = checkClientOptions(options);
  const { now } = settings;
  const random = options.random ?? Math.random;
  const sharedKey = { now, sleep: options.sleep, maxWaitMs: settings.maxWaitMs };
  // Clients of one key in this process pace as one and share flights (client/process-shared.ts).
  const shared =
    options.shareAcrossClients !== false && settings.apiKey !== '' && typeof options.baseUrl === 'string'
      ? processShared({ ...sharedKey, apiUrl: apiUrlFor(options.baseUrl), apiKey: settings.apiKey })
      : privateShared(sharedKey);
  const executor = new RequestExecutor({
    baseUrl: options.baseUrl,
    // Echoes of the key in the service's answers are cleaned before anything reads them (http/echo-redaction.ts).
    transport: redactingEchoes(options.transport, settings.secrets),
    sleep: options.sleep,
    now,
    random,
    maxWaitMs: settings.maxWaitMs,
    maxRetries: settings.maxRetries,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    pacer: shared.pacer,
  });
  if (options.pacingState !== undefined) executor.pacer.restoreState(options.pacingState);
  const runner = new CallRunner({ now, callTimeoutMs: settings.callTimeoutMs, secrets: settings.secrets, sharedDeadline: options.sharedDeadline, signal: options.signal });
  const api = new ServiceApi(executor);
  const lookups = new Lookups(api, { now, callTimeoutMs: settings.callTimeoutMs, indexOptions: options.linkIndex ?? {} });
  const creator = new ExactlyOnceCreator(api, lookups, {
    maxRetries: settings.maxRetries,
    now,
    random,
    markCreates: options.markCreates !== false,
    listLag: shared.listLag,
    markers: { refused: () => shared.markerRefused, refuse: () => void (shared.markerRefused = true) },
  });
  const polls = new TriggerPolls(api, { baseUrl: options.baseUrl, apiKey: settings.apiKey, secrets: settings.secrets, now });
  const findOrCreateParts = { lookups, creator, api, now, flights: shared.flights, listLag: shared.listLag };
  return clientFacade({ runner, api, executor, lookups, creator, polls, findOrCreateParts, now }, undefined);
}

interface ClientParts {
  runner: CallRunner;
  api: ServiceApi;
  executor: RequestExecutor;
  lookups: Lookups;
  creator: ExactlyOnceCreator;
  polls: TriggerPolls;
  findOrCreateParts: FindOrCreateParts;
  now: () => number;
}

/** Two scopes laid over each other: the earlier deadline, both signals. */
function bothScopes(outer: CallScope | undefined, inner: CallScope): CallScope {
  if (outer === undefined) return inner;
  const signals = [outer.signal, inner.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  const scope: CallScope = {};
  if (signals.length > 0) scope.signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
  const first = [outer, inner].filter((one) => one.deadlineAt !== undefined).sort((a, b) => a.deadlineAt! - b.deadlineAt!)[0];
  if (first) {
    scope.deadlineAt = first.deadlineAt!;
    if (first.limitMs !== undefined) scope.limitMs = first.limitMs;
  }
  return scope;
}

/** The client's methods, every call run by the CallRunner within `scope` (none: the client's own limits). */
function clientFacade(parts: ClientParts, scope: CallScope | undefined): ShortLinkClient {
  const { runner, api, executor, lookups, creator, polls, findOrCreateParts, now } = parts;
  const call = <T>(body: (budget: CallBudget) => Promise<T>): Promise<T> => runner.run(body, scope);

  return {
    within: (inner) => clientFacade(parts, bothScopes(scope, inner)),
    createLink: (input) => call((budget) => creator.create(input, budget)),
    getLink: (id) => call((budget) => api.getLink(id, budget)),
    listLinks: (listOptions) => call((budget) => api.listLinks(listOptions ?? {}, budget)),
    iterateLinks: (iterateOptions = {}) => iterate(iterateOptions, (request) => call((budget) => api.listLinks(request, budget))),
    readAllLinks: (readOptions = {}) =>
      call((budget) => {
        // One budget for the whole walk: the call's own, cut to the walk's time limit.
        const { timeLimitMs } = readAllLimits(readOptions);
        const deadlineAt = Math.min(budget.deadlineAt, now() + timeLimitMs);
        const walk = { ...budget, deadlineAt, limitMs: Math.min(budget.limitMs, timeLimitMs) };
        return readAllLinks((request, within) => api.listLinks(request, within), readOptions, walk);
      }),
    updateLink: (id, patch) =>
      call(async (budget) => {
        const updated = await api.updateLink(id, patch, budget);
        // The run's own changes keep its index current (a new target or slug is found at once).
        lookups.remember(updated);
        return updated;
      }),
    deleteLink: (id) =>
      call(async (budget) => {
        await api.deleteLink(id, budget);
        lookups.forget(String(id));
      }),
    getLinkStats: (id) => call((budget) => api.getLinkStats(id, budget)),
    listDomains: () => call((budget) => api.listDomains(budget)),
    getAccount: () => call((budget) => api.getAccount(budget)),
    findLinks: (find) => call((budget) => lookups.findLinks(find, budget)),
    findLinkByShortUrl: (shortUrl) => call((budget) => lookups.findLinkByShortUrl(shortUrl, budget)),
    findOrCreateLink: (input, findOptions = {}) => call((budget) => findOrCreate(findOrCreateParts, input, findOptions, budget)),
    pollNewLinks: (state, pollOptions = {}) => call((budget) => polls.pollNewLinks(state, pollOptions, budget)),
    pollLinkClicks: (state, pollOptions) => call((budget) => polls.pollLinkClicks(state, pollOptions, budget)),
    serviceProfile: () => ({ ...api.profile, ...(api.profile.paging ? { paging: { ...api.profile.paging } } : {}) }),
    linkIndexSnapshot: () => lookups.snapshot(),
    pacingState: () => executor.pacer.exportState(),
  };
}

/**
 * Every link, page after page; each page is one client call. The walk guard ends a walk the service leads
 * in a circle (PagingCircleError) and hands out each link once.
 */
function iterate(options: IterateLinksOptions, readPage: (request: ListLinksOptions) => Promise<LinkPage>): AsyncIterable<Link> {
  const pageSize = checkPageSize(options.pageSize, 'pageSize') ?? MAX_PAGE_SIZE;
  return {
    async *[Symbol.asyncIterator]() {
      const guard = new WalkGuard('the list');
      let cursor: string | undefined;
      for (;;) {
        const page = await readPage(cursor === undefined ? { limit: pageSize } : { limit: pageSize, cursor });
        const next = page.nextCursor ?? undefined;
        for (const link of guard.page(cursor, page.links, next)) yield link;
        if (next === undefined) return;
        cursor = next;
      }
    },
  };
}
