/**
 * Zapier's throttle counts runs of a step (invocations), not HTTP requests; the service's limit is 120
 * requests a minute per API key. So this is sized from the requests a step makes: most steps send one or
 * two (create, update, delete and Find Link Statistics read or write one link; a quiet New Link poll is one
 * request), so 60 runs a minute per connection ('auth': one connection holds one key; no 'action' in the
 * scope, so every step of the app shares the one count) keep a burst of runs (a spreadsheet import)
 * near the service's 120 requests. Steps that send more (a Find that scans the account, a catch-up poll) are
 * not covered by any run count: for them the core paces by the RateLimit headers and, when the wait does
 * not fit in the step's time budget, ends the step with ThrottledError and the delay (errors.ts), which
 * Zapier retries later. Throttled runs are retried by Zapier too (retry defaults to true).
 */
export const throttle = { window: 60, limit: 60, scope: ['auth'] as 'auth'[] };
