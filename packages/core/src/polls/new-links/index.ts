/**
 * The new-links algorithm behind the polling triggers (docs/guarantees.md §2, packages/core/README.md):
 * state.ts (what is stored), poll.ts (one poll), newest-first.ts / oldest-first.ts (the walks for each
 * list order), first-run.ts, poll-run.ts (limits, mark, cycles), list-order.ts (createdAt).
 */
export { checkNewLinksState } from './state';
export type { NewLinksCatchUp, NewLinksMark, NewLinksSegment, NewLinksState } from './state';
export { DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES, pollNewLinksWith } from './poll';
export type { PollNewLinksCallOptions, PollNewLinksInternals, PollNewLinksOptions, PollNewLinksResult } from './poll';
export type { LinkPageFetcher } from './poll-run';
export type { ListOrder } from './list-order';
