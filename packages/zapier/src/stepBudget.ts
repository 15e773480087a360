import type { Bundle } from 'zapier-platform-core';

/**
 * The one place that sets how long a step of this app may work. Zapier ends a step after 30 s and calls it
 * a timeout (no retry, counted towards turning the Zap off). Every request, pacing wait, retry and scan of
 * a step fits in STEP_TIME_BUDGET_MS; what does not fit ends the step early with Zapier's ThrottledError and
 * a delay (errors.ts), so Zapier runs it again later. The 5 s left are Zapier's own work around the step
 * (loading the app, z.cache, returning the result).
 */
export const STEP_TIME_BUDGET_MS = 25_000;

/**
 * Each request's own limit: a slow answer leaves time for a retry or a create's lookup within the step.
 * (The core shortens it further when less of the step is left.)
 */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The longest single wait (pacing, Retry-After, backoff). A longer one is not waited for even when the
 * step still has the time: the step ends at once with ThrottledError(delay) and Zapier retries later.
 */
export const MAX_WAIT_MS = 20_000;

/** When each running step began, keyed by its bundle (Zapier hands every invocation its own bundle). */
const startedAt = new WeakMap<object, number>();

/** Starts the step's clock (errors.ts does this as a perform begins); a second call keeps the first time. */
export function startStep(bundle: Bundle, now = Date.now()): void {
  if (!startedAt.has(bundle)) startedAt.set(bundle, now);
}

/** The step's deadline as the core takes it: every client call of the step ends by then. */
export function stepDeadline(bundle: Bundle): { atMs: number; limitMs: number } {
  startStep(bundle);
  return { atMs: startedAt.get(bundle)! + STEP_TIME_BUDGET_MS, limitMs: STEP_TIME_BUDGET_MS };
}
