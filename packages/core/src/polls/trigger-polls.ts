/**
 * The two trigger polls of a client (New Link, Link Clicks) and what every poll shares: it sends no
 * request after its time limit or while the rate limit's window is down to its last sixth, ends normally
 * when its time or rate budget runs out after some requests, reads times by the service's clock and binds
 * its state to the account (GET /me when needed).
 */
import type { CallBudget } from '../http/call-budget';
import { DeadlineError, NotFoundError, RateLimitError, redact } from '../errors';
import { normalizeBaseUrl } from '../http/base-url';
import { checkPageSize, checkPositiveInteger } from '../forms/input-checks';
import { checkPositiveNumber } from '../basics/checks';
import type { ServiceApi } from '../endpoints/service-api';
import { type LinkClicksState, type PollLinkClicksCallOptions, type PollLinkClicksResult, pollLinkClicksWith } from './link-clicks';
import { type NewLinksState, type PollNewLinksCallOptions, type PollNewLinksOptions, type PollNewLinksResult, pollNewLinksWith } from './new-links';
import { credentialFingerprint } from './state-owner';

/** A poll starts no request after this long (it goes on at the next poll). */
const DEFAULT_POLL_TIME_LIMIT_MS = 30_000;
/** A poll leaves this share of the rate limit's window to the key's other work. */
const POLL_RATE_RESERVE = 1 / 6;

export interface TriggerPollSettings {
  baseUrl: string;
  apiKey: string;
  secrets: readonly string[];
  now: () => number;
}

export class TriggerPolls {
  constructor(
    private readonly api: ServiceApi,
    private readonly settings: TriggerPollSettings,
  ) {}

  async pollNewLinks(state: NewLinksState | undefined, options: PollNewLinksCallOptions, budget: CallBudget): Promise<PollNewLinksResult> {
    const pageSize = checkPageSize(options.pageSize, 'pageSize');
    const maxPages = checkPositiveInteger(options.maxPages, 'maxPages');
    const maxLinks = checkPositiveInteger(options.maxLinks, 'maxLinks');
    const timeLimitMs = checkPositiveNumber(options.timeLimitMs, 'timeLimitMs') ?? DEFAULT_POLL_TIME_LIMIT_MS;
    const bounded: PollNewLinksOptions = {};
    if (pageSize !== undefined) bounded.pageSize = pageSize;
    if (maxPages !== undefined) bounded.maxPages = maxPages;
    if (maxLinks !== undefined) bounded.maxLinks = maxLinks;
    if (options.since !== undefined) bounded.since = options.since;
    const result = await pollNewLinksWith((request) => this.api.listLinks(request, budget), state, { ...bounded, ...this.controls(timeLimitMs, budget) });
    // A notice may quote the service (a refused cursor's problem detail): the key never goes along.
    return { ...result, notices: result.notices.map((notice) => redact(notice, [...this.settings.secrets])) };
  }

  async pollLinkClicks(state: LinkClicksState | undefined, options: PollLinkClicksCallOptions, budget: CallBudget): Promise<PollLinkClicksResult> {
    const timeLimitMs = checkPositiveNumber(options?.timeLimitMs, 'timeLimitMs') ?? DEFAULT_POLL_TIME_LIMIT_MS;
    const watch: PollLinkClicksCallOptions = { ...options };
    delete watch.timeLimitMs;
    const fetchers = {
      fetchPage: (request: { limit: number; cursor?: string }) => this.api.listLinks(request, budget),
      // A chosen link that answers 404 was deleted: the poll goes on without it.
      fetchLink: async (id: string) => {
        try {
          return await this.api.getLink(id, budget);
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      },
    };
    const result = await pollLinkClicksWith(fetchers, state, { ...watch, ...this.controls(timeLimitMs, budget) });
    return { ...result, notices: result.notices.map((notice) => redact(notice, [...this.settings.secrets])) };
  }

  private controls(timeLimitMs: number, budget: CallBudget) {
    const { now } = this.settings;
    const stopAt = now() + timeLimitMs;
    return {
      shouldStop: () => now() >= stopAt || this.rateBudgetLow(),
      // Time or rate budget used up after some pages: the poll ends and keeps its place.
      isOutOfBudget: (error: unknown) => (error instanceof DeadlineError && !error.outcomeUnknown) || error instanceof RateLimitError,
      now: () => this.api.serviceNow(),
      owner: {
        baseUrl: normalizeBaseUrl(this.settings.baseUrl),
        credential: credentialFingerprint(this.settings.apiKey),
        whoAmI: () => this.api.whoAmI(budget),
      },
    };
  }

  /** The window the service announced is down to its last sixth: leave that to the key's other work. */
  private rateBudgetLow(): boolean {
    const { remaining, resetAtMs, limit } = this.api.executor.pacer.snapshot();
    if (remaining === undefined || resetAtMs === undefined || limit === undefined || resetAtMs <= this.settings.now()) return false;
    return remaining <= Math.ceil(limit * POLL_RATE_RESERVE);
  }
}
