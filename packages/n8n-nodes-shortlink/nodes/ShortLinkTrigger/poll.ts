/**
 * Every event of the Short Link Trigger the same way: its form's values read from the node parameters, one
 * poll of the core's trigger with the state kept in the workflow's static data (plain JSON, under the
 * event's name), a manual test that shows the core's test records and leaves the state alone.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { errorLabels, FormReader, InputError, runTrigger, type Trigger } from '../core';
import { readFormValues } from '../shared/form/values';
import { triggerItems } from '../shared/output';
import { createShortLinkClient } from '../shared/transport/client';
import { toNodeError } from '../shared/transport/errors';
import { guardedPoll } from './pollGuard';
import { timeLimits } from './pollTime';
import { TRIGGER_LAYOUT } from './form';

function valuesOf(context: IPollFunctions, trigger: Trigger) {
	return readFormValues((name, fallback) => context.getNodeParameter(name, fallback), trigger.fields, TRIGGER_LAYOUT);
}

/** One scheduled poll: the records since the last one, oldest first; a changed start (Start From) starts over. */
async function pollOnce(context: IPollFunctions, trigger: Trigger): Promise<INodeExecutionData[][] | null> {
	const values = valuesOf(context, trigger);
	const staticData = context.getWorkflowStaticData('node');
	const timeZone = context.getTimezone();
	const startKey = trigger.startKey?.(new FormReader(values, trigger.fields), { timeZone });
	const startedFrom = `${trigger.event}Start`;
	// A state kept before its start was stored (an earlier version) goes on as it is.
	const stored = startKey === undefined || staticData[startedFrom] === undefined || staticData[startedFrom] === startKey ? staticData[trigger.event] : undefined;
	const { softMs, hardMs } = timeLimits(context);
	const client = await createShortLinkClient(context, { callTimeoutMs: hardMs });
	const result = await runTrigger(trigger, client, values, stored, { timeZone, timeLimitMs: softMs });
	for (const notice of result.notices) context.logger.warn(`Short Link Trigger (${trigger.label}): ${notice}`);
	context.logger.debug(`Short Link Trigger (${trigger.label}): ${result.records.length} record(s)${result.complete ? '' : ' (it goes on at the next poll)'}`);
	staticData[trigger.event] = result.state as IDataObject;
	if (startKey !== undefined) staticData[startedFrom] = startKey;
	if (result.records.length === 0) return null;
	return [triggerItems(context, result.records)];
}

/** A manual test: the core's test records of the account, the stored state left alone. */
async function test(context: IPollFunctions, trigger: Trigger): Promise<INodeExecutionData[][]> {
	const values = valuesOf(context, trigger);
	const client = await createShortLinkClient(context, { callTimeoutMs: timeLimits(context).hardMs });
	const records = await trigger.testRecords(client, new FormReader(values, trigger.fields), { timeZone: context.getTimezone(), timeLimitMs: timeLimits(context).softMs });
	if (records.length === 0) {
		const [message, ...rest] = trigger.emptyTest.split('. ');
		throw new NodeOperationError(context.getNode(), message!, { description: rest.join('. ') });
	}
	return [triggerItems(context, records)];
}

export async function pollTrigger(context: IPollFunctions, trigger: Trigger): Promise<INodeExecutionData[][] | null> {
	const labels = errorLabels(trigger.fields);
	try {
		if (context.getMode() === 'manual') return await test(context, trigger);
		return await guardedPoll(context, () => pollOnce(context, trigger));
	} catch (error) {
		if (error instanceof InputError && error.field !== 'state') {
			// Nothing was sent: the field by its label, the rule in the form's words.
			throw new NodeOperationError(context.getNode(), `Invalid value in the field "${labels[error.field] ?? error.field}"`, { description: error.message });
		}
		throw toNodeError(context.getNode(), error, undefined, labels);
	}
}
