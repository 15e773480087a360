/** What createClient accepts, its defaults, and the checked settings the client's parts share. */
import { InputError } from '../errors';
import { isRecord } from '../basics/json';
import { systemNow } from './process-shared';
import type { Sleep, Transport } from '../http/transport';
import type { PollLinkClicksOptions } from '../polls/link-clicks';
import type { PollNewLinksOptions } from '../polls/new-links';

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
  /**
   * Creates without a slug get one this client chooses (10 letters and digits), a marker only that request
   * can have: a lost answer is settled whatever the clocks and other callers do, and a resend can never make
   * a second link (docs/guarantees.md, "The create rule"). Default true; false lets the service choose the
   * slug, at the cost of "unknown" where a lost answer cannot be settled. A plan that refuses chosen slugs
   * turns it off for the process at the first refusal.
   */
  markCreates?: boolean;
  /**
   * Clients of one key in this process share one rate-limit pacer, what was learned of the list's lag and
   * Find or Create's flights (client/process-shared.ts). Default true; false keeps them to this client.
   */
  shareAcrossClients?: boolean;
}

export interface LinkIndexClientOptions {
  /** A snapshot stored by an earlier invocation (client.linkIndexSnapshot()); ignored when older than maxAgeMs. */
  snapshot?: unknown;
  /**
   * Reads the stored snapshot (and the resumable mode that goes with it) at the client's first lookup instead
   * of `snapshot` up front: a call that looks nothing up (a create, an update by id) reads nothing from the
   * host's store. A failed read fails that lookup; the next lookup reads again.
   */
  loadSnapshot?: () => Promise<{ snapshot?: unknown; resumable?: 'stored' | 'run' | 'none' }>;
  /** Age (since its walk began) after which a stored snapshot is dropped and the account read anew; default 6 h. */
  maxAgeMs?: number;
  /** Links created by others are fetched before a "none" when the last refresh is older than this; default 120 000. */
  refreshAfterMs?: number;
  /** See LinkIndexOptions.resumable; default 'run', 'stored' with a snapshot store. */
  resumable?: 'stored' | 'run' | 'none';
  /** See LinkIndexOptions.noneMaxAgeMs: a "none" only from an index read at most this long ago. */
  noneMaxAgeMs?: number;
}

export interface FindOrCreateOptions {
  /**
   * Also hand out a paused, blocked or expired link as "found" (default false: such a link does not
   * redirect, so a new one is created beside it).
   */
  reuseInactive?: boolean;
  /**
   * Asked right before a create (not for a link found): the run's quota guard takes one of the plan's links
   * left, or throws to send nothing (creating/quota-guard.ts). `failed` hears how a create ended badly.
   */
  createGate?: CreateGate;
}

export interface CreateGate {
  before(): Promise<void>;
  failed(error: unknown): Promise<void>;
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

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_WAIT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 3;

/** The options after their checks, with every default filled in. */
export interface ClientSettings {
  options: ClientOptions;
  /** The key as pasted and as sent (hosts trim it): a service that echoes either must not show it. */
  secrets: string[];
  apiKey: string;
  maxWaitMs: number;
  maxRetries: number;
  requestTimeoutMs: number;
  callTimeoutMs: number;
  maxResponseBytes: number;
  now: () => number;
}

export function checkNonNegative(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InputError(field, `${field} must be a number of at least 0.`);
  }
  return value;
}

export function checkPositiveNumber(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InputError(field, `${field} must be a number greater than 0.`);
  }
  return value;
}

export function checkClientOptions(options: ClientOptions): ClientSettings {
  if (!isRecord(options)) throw new InputError('options', 'createClient needs an options object with baseUrl, transport and sleep.');
  if (typeof options.transport !== 'function') {
    throw new InputError('transport', 'transport is required: a function that sends a TransportRequest and returns a TransportResponse.');
  }
  if (typeof options.sleep !== 'function') {
    throw new InputError('sleep', 'sleep is required: a function (ms) => Promise<void>.');
  }
  const rawKey = typeof options.apiKey === 'string' ? options.apiKey : '';
  return {
    options,
    apiKey: rawKey.trim(),
    secrets: [...new Set([rawKey, rawKey.trim()])].filter((secret) => secret !== ''),
    maxWaitMs: checkNonNegative(options.maxWaitMs, 'maxWaitMs') ?? DEFAULT_MAX_WAIT_MS,
    maxRetries: Math.floor(checkNonNegative(options.maxRetries, 'maxRetries') ?? DEFAULT_MAX_RETRIES),
    requestTimeoutMs: checkPositiveNumber(options.requestTimeoutMs, 'requestTimeoutMs') ?? DEFAULT_REQUEST_TIMEOUT_MS,
    callTimeoutMs: checkPositiveNumber(options.callTimeoutMs, 'callTimeoutMs') ?? DEFAULT_CALL_TIMEOUT_MS,
    maxResponseBytes: checkPositiveNumber(options.maxResponseBytes, 'maxResponseBytes') ?? DEFAULT_MAX_RESPONSE_BYTES,
    now: options.now ?? systemNow,
  };
}
