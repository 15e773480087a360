import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	DEFAULT_CREATED_WITHIN_DAYS,
	InputError,
	linkRecord,
	parseMilestones,
	relabel,
	runTrigger,
	triggerByKey,
	type LinkClicksMode,
	type LinkClicksScope,
} from '../core';

import { createShortLinkClient } from '../shared/transport/client';
import { toNodeError } from '../shared/transport/errors';
import { guardedPoll } from './pollGuard';
import { timeLimits } from './pollTime';
import { triggerItems } from '../shared/output';

/** Where the Link Clicks state lives in the workflow's static data (plain JSON, kept by n8n). */
const STATE_KEY = 'linkClicks';

/** The form's labels for the core's option names, for errors. */
const LABELS: Record<string, string> = {
	milestones: 'Milestones',
	createdWithinDays: 'Created Within (Days)',
	linkIds: 'Links',
	mode: 'Fire On',
	scope: 'Watch',
};

interface ClickSettings {
	mode: LinkClicksMode;
	milestones: number[];
	scope: LinkClicksScope;
}

/** The form as the core's options: presets and the custom list together; the chosen links' ids. */
function readSettings(context: IPollFunctions): ClickSettings {
	const mode = context.getNodeParameter('clicksMode', 'milestones') as LinkClicksMode;
	let milestones: number[] = [];
	if (mode === 'milestones') {
		const presets = (context.getNodeParameter('milestonePresets', []) as Array<string | number>).map(Number);
		const custom = parseMilestones(context.getNodeParameter('customMilestones', '') as string, 'Custom Milestones');
		milestones = [...new Set([...presets, ...custom])].sort((a, b) => a - b);
		if (milestones.length === 0) {
			throw new InputError('milestones', 'Pick at least one milestone (100, 1,000, …) or type your own in Custom Milestones, for example 50, 250, 5000.');
		}
	}
	const watch = context.getNodeParameter('clicksScope', 'recent') as string;
	if (watch === 'chosen') {
		const entries = (context.getNodeParameter('chosenLinks.link', []) as Array<{ link?: { value?: unknown } | string }>) ?? [];
		const ids = entries
			.map((entry) => (typeof entry.link === 'object' && entry.link !== null ? entry.link.value : entry.link))
			.map((value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''))
			.filter((value) => value !== '');
		if (ids.length === 0) throw new InputError('linkIds', 'Add at least one link to watch, or watch the links created in the last N days.');
		return { mode, milestones, scope: { linkIds: ids } };
	}
	const days = context.getNodeParameter('createdWithinDays', DEFAULT_CREATED_WITHIN_DAYS) as number;
	return { mode, milestones, scope: { createdWithinDays: days } };
}

const linkClicks = triggerByKey('trigger.linkClicks');

/** The settings as the core trigger's form values (presets and custom milestones already merged here). */
function formValues(settings: ClickSettings) {
	const scope = settings.scope;
	return {
		clicksMode: settings.mode,
		milestones: settings.milestones,
		clicksScope: 'linkIds' in scope ? 'chosen' : 'recent',
		linkIds: 'linkIds' in scope ? scope.linkIds : [],
		createdWithinDays: 'createdWithinDays' in scope ? scope.createdWithinDays : undefined,
	};
}

/**
 * A manual test shows one link of the scope as a sample of the output (nothing counted: clicksBefore is
 * its count now, newClicks 0) and leaves the stored counts alone.
 */
async function sample(context: IPollFunctions, settings: ClickSettings): Promise<INodeExecutionData[][]> {
	const client = await createShortLinkClient(context, { callTimeoutMs: timeLimits(context).hardMs });
	const link = 'linkIds' in settings.scope ? await client.getLink(settings.scope.linkIds[0]!) : (await client.listLinks({ limit: 1 })).links[0];
	if (link === undefined) {
		throw new NodeOperationError(context.getNode(), 'No link in this account yet, so there is no sample to show', {
			description: 'The test shows a link of the account with its click fields as a sample. Create a short link and test again.',
		});
	}
	const clicks = typeof link.clicks === 'number' ? link.clicks : 0;
	const item: IDataObject = { ...(linkRecord(link) as IDataObject), clicksBefore: clicks, clicks, newClicks: 0 };
	if (settings.mode === 'milestones') item.milestone = settings.milestones[0];
	return [triggerItems(context, [item])];
}

async function pollOnce(context: IPollFunctions, settings: ClickSettings): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const { softMs, hardMs } = timeLimits(context);
	const client = await createShortLinkClient(context, { callTimeoutMs: hardMs });
	const result = await runTrigger(linkClicks, client, formValues(settings), staticData[STATE_KEY], { timeZone: context.getTimezone(), timeLimitMs: softMs });
	for (const notice of result.notices) context.logger.warn(`Short Link Trigger (Link Clicks): ${notice}`);
	context.logger.debug(
		`Short Link Trigger (Link Clicks): ${result.records.length} event(s)${result.complete ? '' : ' (the walk goes on at the next poll)'}`,
	);
	staticData[STATE_KEY] = result.state as IDataObject;
	if (result.records.length === 0) return null;
	return [triggerItems(context, result.records)];
}

/** The Link Clicks event: milestones reached or new clicks since the last poll, one item per event. */
export async function pollLinkClicks(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	try {
		const settings = readSettings(context);
		if (context.getMode() === 'manual') return await sample(context, settings);
		return await guardedPoll(context, () => pollOnce(context, settings));
	} catch (error) {
		if (error instanceof InputError && error.field !== 'state') {
			// Nothing was sent: the field by its label, the rule in the form's words.
			const label = LABELS[error.field] ?? error.field;
			throw new NodeOperationError(context.getNode(), `Invalid value in the field "${label}"`, { description: relabel(error.message, error.field, LABELS) });
		}
		throw toNodeError(context.getNode(), error);
	}
}
