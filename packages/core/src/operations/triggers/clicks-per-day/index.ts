/**
 * The Clicks Per Day trigger (issue 27): options.ts (scope, per link or campaign), state.ts (the last day
 * delivered and an unfinished round, bounded), poll.ts (one poll). Days are UTC, the service's days.
 */
export { checkDailyScope, checkUnit } from './options';
export type { ClicksPerDayScope, ClicksPerDayUnit } from './options';
export { checkClicksPerDayState, MAX_CATCH_UP_DAYS, MAX_DAILY_LINKS } from './state';
export type { ClicksPerDayRound, ClicksPerDayState } from './state';
export { DEFAULT_DAILY_MAX_REQUESTS, goneAsUndefined, pollClicksPerDay, pollClicksPerDayWith } from './poll';
export type { ClicksPerDayFetchers, DailyClicksRecord, PollClicksPerDayOptions, PollClicksPerDayResult } from './poll';

/** The cost in the form's words (hosts show it as the trigger's help). */
export const CLICKS_PER_DAY_COST_HELP =
  'Once a UTC day has closed (00:00 UTC), the next poll reads the links in scope — one request per 100 links of the account (chosen links: one request each) — and one statistics request per link, at most 100 requests per poll (a larger scope finishes over the next polls, and its records come together when all links are read). All other polls of the day send no request. At most 1,000 links are watched; days missed while the workflow was off are delivered on its return, oldest first, up to 31 days.';
