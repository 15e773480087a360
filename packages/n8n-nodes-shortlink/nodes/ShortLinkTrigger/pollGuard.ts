import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { createPollGuard } from '../core';

/**
 * One poll at a time per workflow and trigger node. n8n starts a poll at every interval even while the
 * last one still runs (a poll waiting behind a bulk run on the rate limit), and both would read the same
 * stored state and hand out the same links. Polls run on the main instance only, also in queue mode
 * (workers run executions, not triggers), so a guard in this process is enough. A poll holding its key
 * for ten minutes (five times its own time limit) is taken for lost and no longer blocks.
 */
export const pollGuard = createPollGuard({ staleAfterMs: 10 * 60_000 });

/** The guard's key: the workflow and the trigger node (a workflow may hold several triggers). */
export function pollKey(context: IPollFunctions): string {
	return `${context.getWorkflow().id ?? 'unsaved'}:${context.getNode().id}`;
}

/**
 * Runs one scheduled poll of any event under the guard; a poll that finds the previous one still running
 * hands out nothing and says so in n8n's log (the next one goes on).
 */
export async function guardedPoll(
	context: IPollFunctions,
	poll: () => Promise<INodeExecutionData[][] | null>,
): Promise<INodeExecutionData[][] | null> {
	const outcome = await pollGuard.run(pollKey(context), poll);
	if (outcome.ran) return outcome.value;
	context.logger.info(
		`Short Link Trigger: the previous poll of this trigger still runs (${Math.round(outcome.runningForMs / 1000)} s); this one hands out nothing, the next one goes on.`,
	);
	return null;
}
