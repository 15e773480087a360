/**
 * When a failed attempt may be repeated, and how long to wait before it (see README "Retries").
 * GET, PATCH (same body) and DELETE are idempotent: retried on 5xx, resets and timeouts.
 * POST creates a link, so it is retried only when the service certainly did not process it:
 * a 429, or a connection that was never made (refused, DNS).
 */
import type { HttpMethod } from './transport';

/** Network codes that prove the request never reached the service. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Network codes after which the request may or may not have been processed. */
const MAYBE_PROCESSED_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EPIPE',
  'ESOCKETTIMEDOUT',
  'UND_ERR_SOCKET',
  'ERR_NETWORK',
  'ECONNCLOSED',
]);
/** Statuses worth another attempt for idempotent methods. */
const RETRYABLE_SERVER_STATUSES = new Set([500, 502, 503, 504]);

export type AttemptOutcome = { status: number } | { networkCode: string };

export function isIdempotent(method: HttpMethod): boolean {
  return method !== 'POST';
}

/** The request certainly did not reach the service. */
export function neverSent(code: string): boolean {
  return NEVER_SENT_CODES.has(code);
}

/** The service may have processed the request although no (good) answer came. */
export function mayHaveBeenProcessed(outcome: AttemptOutcome): boolean {
  if ('status' in outcome) return outcome.status >= 500;
  return !neverSent(outcome.networkCode);
}

export function isRetryable(method: HttpMethod, outcome: AttemptOutcome): boolean {
  if ('status' in outcome) {
    if (outcome.status === 429) return true;
    return isIdempotent(method) && RETRYABLE_SERVER_STATUSES.has(outcome.status);
  }
  if (neverSent(outcome.networkCode)) return true;
  return isIdempotent(method) && (MAYBE_PROCESSED_CODES.has(outcome.networkCode) || outcome.networkCode === 'UNKNOWN');
}

export interface BackoffOptions {
  /** First delay before jitter; default 300 ms. */
  baseDelayMs?: number;
  /** Upper bound of any backoff; default 8 s. */
  maxDelayMs?: number;
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half is random, so delays spread
 * out between clients but never collapse to zero. attempt = 0 for the first retry.
 */
export function backoffDelayMs(attempt: number, random: () => number, options: BackoffOptions = {}): number {
  const base = options.baseDelayMs ?? 300;
  const cap = options.maxDelayMs ?? 8000;
  const step = Math.min(cap, base * 2 ** Math.min(attempt, 20));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * r);
}
