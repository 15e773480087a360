/** Small statistics for the benchmark figures. */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Achieved / allowed rate under a fixed window of `limit` requests per `windowMs`.
 *
 * A fixed window lets a client spend `limit` requests at once, then `limit` more at each reset. So the most
 * any client can get done within a span T (first request sent → last answer received) is
 * limit × (1 + T / windowMs). The ratio of the successes achieved to that envelope is 1.0 for an ideal client
 * when the item count is a whole number of windows (the bench uses such counts), and falls with every
 * millisecond a client waits past a reset, and with every failed item.
 */
export function rateUse(successes: number, spanMs: number, limit: number, windowMs: number): number {
  if (spanMs < 0 || limit <= 0 || windowMs <= 0) throw new Error('rateUse needs a span ≥ 0 and a positive limit and window');
  return successes / (limit * (1 + spanMs / windowMs));
}

/** `total` items split over `parts` as evenly as can be (the first ones get one more): who does how many. */
export function evenShares(total: number, parts: number): number[] {
  if (!Number.isInteger(total) || !Number.isInteger(parts) || total < 0 || parts < 1) throw new Error('evenShares needs a whole total ≥ 0 and at least one part');
  return Array.from({ length: parts }, (_, part) => Math.floor(total / parts) + (part < total % parts ? 1 : 0));
}
