import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CLICKS_PER_DAY_COST_HELP, InputError, runTrigger, triggerByKey, type FormValues } from '../core';

import { fieldProperty } from '../shared/form/properties';
import { createShortLinkClient } from '../shared/transport/client';
import { toNodeError } from '../shared/transport/errors';
import { guardedPoll } from './pollGuard';
import { timeLimits } from './pollTime';
import { triggerItems } from '../shared/output';

/** Where the Clicks Per Day state lives in the workflow's static data (plain JSON, kept by n8n). */
const STATE_KEY = 'clicksPerDay';
const trigger = triggerByKey('trigger.clicksPerDay');

/** Which core fields show for which "Watch" choice (the others always show with the event). */
const SHOWN_FOR_SCOPE: Record<string, string> = { createdWithinDays: 'recent', campaign: 'campaign', source: 'campaign', medium: 'campaign', linkIds: 'chosen' };

/**
 * The event's properties, generated from the core trigger's fields (labels, help and rules are the core's),
 * each shown only for this event; parameter names carry a `daily` prefix where Link Clicks uses the same key.
 */
export const clicksPerDayProperties: INodeProperties[] = [
	...trigger.fields.map((field) => {
		const scope = SHOWN_FOR_SCOPE[field.key];
		const property = fieldProperty(field, nameOf(field.key));
		const show: Record<string, string[]> = { event: ['clicksPerDay'], ...(scope ? { dailyScope: [scope] } : {}) };
		return { ...property, ...(field.key === 'dailyScope' || field.key === 'per' ? { noDataExpression: true } : {}), ...(field.key === 'campaign' ? { required: true } : {}), displayOptions: { show } } as INodeProperties;
	}),
	{
		// What the trigger does first, in the words of its form; what it sends to the service after it.
		displayName: `How it works: one item per watched link (or campaign) with the clicks of each day that closed. Days are UTC days, the service's: a day closes at 00:00 UTC. A test shows yesterday; when no watched link had a click then, it shows them with 0 clicks so that there are fields to map, whatever Include Days Without Clicks says. Requests: ${CLICKS_PER_DAY_COST_HELP}`,
		name: 'clicksPerDayNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: ['clicksPerDay'] } },
	},
];

/** Link Clicks already has `createdWithinDays`: this event's copy is `dailyCreatedWithinDays`. */
function nameOf(key: string): string {
	return key === 'createdWithinDays' ? 'dailyCreatedWithinDays' : key;
}

function readValues(context: IPollFunctions): FormValues {
	const values: Record<string, unknown> = {};
	for (const field of trigger.fields) values[field.key] = context.getNodeParameter(nameOf(field.key), ''); // '' for a field hidden by the scope: empty
	return values;
}

/** One poll: the closed days not delivered yet, one item per link (or campaign) and day, oldest first. */
async function pollOnce(context: IPollFunctions, values: FormValues): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const { softMs, hardMs } = timeLimits(context);
	const client = await createShortLinkClient(context, { callTimeoutMs: hardMs });
	const result = await runTrigger(trigger, client, values, staticData[STATE_KEY], { timeLimitMs: softMs });
	for (const notice of result.notices) context.logger.warn(`Short Link Trigger (Clicks Per Day): ${notice}`);
	staticData[STATE_KEY] = result.state as IDataObject;
	if (result.records.length === 0) return null;
	return [triggerItems(context, result.records)];
}

/**
 * A manual test shows yesterday's records as the settings make them; only when that is nothing (no watched
 * link had a click yesterday and Include Days Without Clicks is off) it shows the 0-click rows, so that there are
 * fields to map — the form's notice says so. It leaves the stored state alone.
 */
async function sample(context: IPollFunctions, values: FormValues): Promise<INodeExecutionData[][]> {
	const client = await createShortLinkClient(context, { callTimeoutMs: timeLimits(context).hardMs });
	const limits = { timeLimitMs: timeLimits(context).softMs };
	let result = await runTrigger(trigger, client, values, undefined, limits);
	if (result.records.length === 0 && values.includeZeroDays !== true) result = await runTrigger(trigger, client, { ...values, includeZeroDays: true }, undefined, limits);
	if (result.records.length === 0) {
		throw new NodeOperationError(context.getNode(), 'No link in scope yet, so there is no sample to show', {
			description: 'The test shows yesterday\'s clicks of the watched links. Check the scope (campaign, days, links) or create a link and test again.',
		});
	}
	return [triggerItems(context, result.records)];
}

/** The Clicks Per Day event. */
export async function pollClicksPerDay(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	try {
		const values = readValues(context);
		if (context.getMode() === 'manual') return await sample(context, values);
		return await guardedPoll(context, () => pollOnce(context, values));
	} catch (error) {
		if (error instanceof InputError && error.field !== 'state') {
			// Nothing was sent: the core's message names the field by its label.
			throw new NodeOperationError(context.getNode(), 'Invalid value in the trigger\'s fields', { description: error.message });
		}
		throw toNodeError(context.getNode(), error);
	}
}
