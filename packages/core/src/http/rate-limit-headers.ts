/**
 * Reads the rate-limit headers. The document: RateLimit-Limit / -Remaining / -Reset (delta seconds) and
 * Retry-After on 429. Tolerated too: X-RateLimit-* names, a Reset that is an epoch timestamp (any value
 * above ~10 years of seconds cannot be a delta), the combined IETF `RateLimit` field of later drafts,
 * and Retry-After as an HTTP date.
 *
 * Absolute times (an epoch Reset, an HTTP-date Retry-After) are the service's clock, not ours
 * (docs/guarantees.md, "Rate-limit times"): they are read against the service's "now" — the answer's own
 * Date header, else the offset learned from earlier Date headers — and turned into a wait on our clock.
 * A value no rate limit means (a wait beyond an hour, an absolute time more than an hour away on the
 * service's clock, in the past or future) is taken as unknown, not as a wall: the client then paces by its
 * own backoff and the window's other headers.
 */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Epoch ms when the window resets. */
  resetAtMs?: number;
}

type Headers = Record<string, string | undefined>;

/** Above this a "Reset" cannot be a delta in seconds: it is an epoch timestamp. */
const TEN_YEARS_S = 10 * 365 * 24 * 3600;
/** Above this an epoch value is in milliseconds, not seconds. */
const EPOCH_MS_THRESHOLD = 1e11;
/** The longest wait a rate limit plausibly asks for; beyond it a value is taken as unknown. */
export const PLAUSIBLE_WAIT_MS = 3600_000;

/**
 * The service's clock now (epoch ms): the answer's own Date header when it has one, else our clock moved by
 * the offset learned from earlier answers (`serviceOffsetMs`: service minus ours), else ours.
 */
export function serviceNowMs(headers: Headers, nowMs: number, serviceOffsetMs?: number): number {
  const date = header(headers, 'date');
  const parsed = date === undefined ? Number.NaN : Date.parse(date);
  if (!Number.isNaN(parsed)) return parsed;
  return nowMs + (serviceOffsetMs ?? 0);
}

/** A wait in ms from an absolute time on the service's clock; undefined when it is more than an hour away. */
function waitUntil(atMs: number, serviceNow: number): number | undefined {
  const waitMs = atMs - serviceNow;
  if (waitMs > PLAUSIBLE_WAIT_MS || waitMs < -PLAUSIBLE_WAIT_MS) return undefined;
  return Math.max(0, waitMs);
}

function header(headers: Headers, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = headers[name] ?? headers[name.toLowerCase()];
    if (value !== undefined && value.trim() !== '') return value;
  }
  return undefined;
}

/** First number of a value like `120`, `120, 120;w=60` or `"120"`. */
function firstNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /-?\d+(\.\d+)?/.exec(value);
  if (!match) return undefined;
  const n = Number(match[0]);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reset value (delta seconds, epoch seconds or epoch ms) → epoch ms on our clock; undefined when it is
 * implausible (a delta beyond an hour, an absolute time more than an hour from the service's `serviceNow`).
 */
export function resetToEpochMs(value: number, nowMs: number, serviceNow: number = nowMs): number | undefined {
  if (value > TEN_YEARS_S) {
    const waitMs = waitUntil(value > EPOCH_MS_THRESHOLD ? value : value * 1000, serviceNow);
    return waitMs === undefined ? undefined : nowMs + waitMs;
  }
  if (value * 1000 > PLAUSIBLE_WAIT_MS) return undefined;
  return nowMs + Math.max(0, value) * 1000;
}

/** `RateLimit: limit=10, remaining=0, reset=30` (drafts ≤ 7) or `"default";r=0;t=30` (draft 8+). */
function readCombined(value: string): { limit?: number; remaining?: number; reset?: number } {
  const out: { limit?: number; remaining?: number; reset?: number } = {};
  for (const match of value.matchAll(/(?:^|[\s,;])(limit|remaining|reset|r|t)=("?)(\d+)\2/gi)) {
    const key = match[1]!.toLowerCase();
    const n = Number(match[3]);
    if (key === 'limit') out.limit = n;
    else if (key === 'remaining' || key === 'r') out.remaining = n;
    else out.reset = n;
  }
  return out;
}

/** The window as the headers tell it; `serviceOffsetMs`: see serviceNowMs. */
export function parseRateLimitHeaders(headers: Headers, nowMs: number, serviceOffsetMs?: number): RateLimitInfo {
  const combined = header(headers, 'ratelimit');
  const parts = combined ? readCombined(combined) : {};
  const policy = firstNumber(header(headers, 'ratelimit-policy'));
  const limit = firstNumber(header(headers, 'ratelimit-limit', 'x-ratelimit-limit')) ?? parts.limit ?? policy;
  const remaining = firstNumber(header(headers, 'ratelimit-remaining', 'x-ratelimit-remaining')) ?? parts.remaining;
  const reset = firstNumber(header(headers, 'ratelimit-reset', 'x-ratelimit-reset')) ?? parts.reset;
  const info: RateLimitInfo = {};
  if (limit !== undefined && limit >= 0) info.limit = limit;
  if (remaining !== undefined) info.remaining = Math.max(0, Math.floor(remaining));
  const resetAtMs = reset === undefined ? undefined : resetToEpochMs(reset, nowMs, serviceNowMs(headers, nowMs, serviceOffsetMs));
  if (resetAtMs !== undefined) info.resetAtMs = resetAtMs;
  return info;
}

/**
 * Retry-After: delta seconds or an HTTP date (the service's clock) → ms to wait from now (never negative);
 * undefined when absent, unreadable or implausible (beyond an hour).
 */
export function parseRetryAfterMs(headers: Headers, nowMs: number, serviceOffsetMs?: number): number | undefined {
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const waitMs = Math.round(Number(trimmed) * 1000);
    return waitMs > PLAUSIBLE_WAIT_MS ? undefined : waitMs;
  }
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return waitUntil(date, serviceNowMs(headers, nowMs, serviceOffsetMs));
}
