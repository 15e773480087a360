/**
 * Fixed-window rate limiting per bucket (an API key's hash, or the client address for requests
 * without a known key). The window starts with a bucket's first request.
 */
import type { RateLimitOptions } from './types';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (also the Retry-After of a 429). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    RateLimiter.check(options);
  }

  private static check(options: RateLimitOptions): void {
    if (!Number.isInteger(options.limit) || options.limit < 1) throw new Error('rateLimit.limit must be a positive integer');
    if (!(options.windowSeconds > 0)) throw new Error('rateLimit.windowSeconds must be positive');
  }

  get settings(): RateLimitOptions {
    return this.options;
  }

  /** New limits start every bucket afresh. */
  configure(options: RateLimitOptions): void {
    RateLimiter.check(options);
    this.options = { ...options };
    this.windows.clear();
  }

  /** Counts one request of the bucket and says whether it may proceed. */
  hit(bucket: string): RateLimitDecision {
    const now = this.now();
    const windowMs = this.options.windowSeconds * 1000;
    let window = this.windows.get(bucket);
    if (!window || now >= window.start + windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(bucket, window);
    }
    window.count++;
    const allowed = window.count <= this.options.limit;
    return {
      allowed,
      limit: this.options.limit,
      remaining: Math.max(0, this.options.limit - window.count),
      resetSeconds: Math.max(0, Math.ceil((window.start + windowMs - now) / 1000)),
    };
  }
}
