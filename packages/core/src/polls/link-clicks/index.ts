/**
 * The Link Clicks trigger's algorithm (packages/core/README.md, "Link clicks"): options.ts (mode,
 * milestones, scope), state.ts (what is stored, bounded), poll.ts (one poll).
 */
export { idOfIdentity, linkIdentity } from './identity';
export { checkLinkClicksState, lookBackState, MAX_WATCHED_LINKS } from './state';
export type { LinkClicksState, LinkClicksWalk } from './state';
export {
  checkMilestones,
  DEFAULT_CREATED_WITHIN_DAYS,
  MAX_CHOSEN_LINKS,
  MAX_CREATED_WITHIN_DAYS,
  parseMilestones,
} from './options';
export type { LinkClicksMode, LinkClicksScope } from './options';
export { DEFAULT_MAX_CLICK_REQUESTS, DEFAULT_MAX_EVENTS, pollLinkClicksWith } from './poll';
export type { LinkClickEvent, LinkClicksFetchers, PollLinkClicksCallOptions, PollLinkClicksInternals, PollLinkClicksOptions, PollLinkClicksResult } from './poll';
