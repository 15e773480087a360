import type { IPollFunctions } from 'n8n-workflow';

/** A poll starts no request after this long, so that it ends well inside a one-minute interval. */
const POLL_SOFT_LIMIT_MS = 30_000;
/** Nothing of a poll (a request, a wait) goes on past this. */
const POLL_HARD_LIMIT_MS = 45_000;

/** Every event's poll time: n8n 2.x tells a poll how long it may take (getPollBudgetMs); the limits shrink to fit inside it. */
export function timeLimits(context: IPollFunctions): { softMs: number; hardMs: number } {
	const withBudget = context as { getPollBudgetMs?: () => number };
	const budget = typeof withBudget.getPollBudgetMs === 'function' ? withBudget.getPollBudgetMs() : Infinity;
	return { softMs: Math.min(POLL_SOFT_LIMIT_MS, budget * 0.6), hardMs: Math.min(POLL_HARD_LIMIT_MS, budget) };
}
