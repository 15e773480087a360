import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { InputError, linkRecord, runTrigger, triggerByKey } from '../core';

import { createShortLinkClient } from '../shared/transport/client';
import { toNodeError } from '../shared/transport/errors';
import { guardedPoll } from './pollGuard';
import { timeLimits } from './pollTime';
import { readStartFrom } from './startFrom';
import { triggerItems } from '../shared/output';

// Defaults (Max Links per Poll, Max Requests per Poll) are the core's: packages/core/src/polls/new-links.
export { DEFAULT_MAX_LINKS, DEFAULT_MAX_PAGES } from '../core';

const newLink = triggerByKey('trigger.newLink');

/** Where the trigger's state lives in the workflow's static data (kept as plain JSON by n8n). */
const STATE_KEY = 'newLinks';
/** The "Start From" the state was made with: changing it starts over. */
const START_KEY = 'newLinksStart';

const OPTION_LABELS: Record<string, string> = { maxLinks: 'Max Links per Poll', maxPages: 'Max Requests per Poll', since: 'Created Since' };

/** A manual test shows the newest link as a sample and leaves the stored state alone. */
async function sample(context: IPollFunctions): Promise<INodeExecutionData[][]> {
	const client = await createShortLinkClient(context, { callTimeoutMs: timeLimits(context).hardMs });
	const page = await client.listLinks({ limit: 1 });
	if (page.links.length === 0) {
		throw new NodeOperationError(context.getNode(), 'No link in this account yet, so there is no sample to show', {
			description:
				'The test shows the newest link of the account as a sample. Create a short link (in the dashboard, or with the Short Link node) and test again. Once the workflow is active, every link created after activation starts it.',
		});
	}
	return [triggerItems(context, page.links.map(linkRecord))];
}

/** One scheduled poll: the links created since the last one, oldest first, at most Max Links per Poll. */
async function pollOnce(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const start = readStartFrom(context);
	const staticData = context.getWorkflowStaticData('node');
	// A changed "Start From" starts over with the new setting (a state from before the option existed was
	// made with "new links only").
	const madeWith = staticData[START_KEY] ?? 'new';
	const stored = madeWith === start.key ? staticData[STATE_KEY] : undefined;
	const { softMs, hardMs } = timeLimits(context);
	const client = await createShortLinkClient(context, { callTimeoutMs: hardMs });
	const values = { maxLinks: options.maxLinks, maxPages: options.maxPages, since: start.since };
	const result = await runTrigger(newLink, client, values, stored, { timeZone: context.getTimezone(), timeLimitMs: softMs });
	for (const notice of result.notices) context.logger.warn(`Short Link Trigger: ${notice}`);
	staticData[STATE_KEY] = result.state as IDataObject;
	staticData[START_KEY] = start.key;
	if (result.records.length === 0) return null;
	return [triggerItems(context, result.records)];
}

export async function pollNewLinks(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	try {
		if (context.getMode() === 'manual') return await sample(context);
		return await guardedPoll(context, () => pollOnce(context));
	} catch (error) {
		if (error instanceof InputError && OPTION_LABELS[error.field]) {
			throw new NodeOperationError(context.getNode(), `Invalid value in the field "${OPTION_LABELS[error.field]}"`, { description: error.message });
		}
		throw toNodeError(context.getNode(), error);
	}
}
