/**
 * Reads the rate-limit headers. The document: RateLimit-Limit / -Remaining / -Reset (delta seconds) and
 * Retry-After on 429. Tolerated too: X-RateLimit-* names, a Reset that is an epoch timestamp (any value
 * above ~10 years of seconds cannot be a delta), the combined IETF `RateLimit` field of later drafts,
 * and Retry-After as an HTTP date.
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

/** Reset value (delta seconds, epoch seconds or epoch ms) → epoch ms. */
export function resetToEpochMs(value: number, nowMs: number): number {
  if (value > EPOCH_MS_THRESHOLD) return value;
  if (value > TEN_YEARS_S) return value * 1000;
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

export function parseRateLimitHeaders(headers: Headers, nowMs: number): RateLimitInfo {
  const combined = header(headers, 'ratelimit');
  const parts = combined ? readCombined(combined) : {};
  const policy = firstNumber(header(headers, 'ratelimit-policy'));
  const limit = firstNumber(header(headers, 'ratelimit-limit', 'x-ratelimit-limit')) ?? parts.limit ?? policy;
  const remaining = firstNumber(header(headers, 'ratelimit-remaining', 'x-ratelimit-remaining')) ?? parts.remaining;
  const reset = firstNumber(header(headers, 'ratelimit-reset', 'x-ratelimit-reset')) ?? parts.reset;
  const info: RateLimitInfo = {};
  if (limit !== undefined && limit >= 0) info.limit = limit;
  if (remaining !== undefined) info.remaining = Math.max(0, Math.floor(remaining));
  if (reset !== undefined) info.resetAtMs = resetToEpochMs(reset, nowMs);
  return info;
}

/** Retry-After: delta seconds or an HTTP date → ms to wait from now (never negative). */
export function parseRetryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
