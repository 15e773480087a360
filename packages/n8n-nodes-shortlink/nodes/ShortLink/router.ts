import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CancelledError } from '../core';

import { createShortLinkClient, type ShortLinkClient } from '../shared/transport/client';
import { errorOutputJson, toNodeError } from '../shared/transport/errors';
import { BY_RESOURCE } from './operations';

/** Runs the chosen operation once per input item; every output item points back to its input item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = BY_RESOURCE[resource]?.[operation];
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for the resource "${resource}"`,
		);
	}

	// One client for all items: the core's pacing then spreads the whole run over the rate limit.
	// A refused credential (e.g. its Base URL) fails before any item ran: one node error, no item to pair.
	let client: ShortLinkClient;
	try {
		client = await createShortLinkClient(this);
	} catch (error) {
		throw toNodeError(this.getNode(), error);
	}
	// An operation that takes all items at once (Find or Create's Review Step) answers for the whole run.
	if (chosen.executeAll) {
		try {
			const all = await chosen.executeAll.call(this, client);
			if (all) return [all];
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, undefined, chosen.labels);
			if (!this.continueOnFail() || error instanceof CancelledError) throw nodeError;
			return [[{ json: errorOutputJson(nodeError, error, chosen.labels), pairedItem: items.map((_, item) => ({ item })) }]];
		}
	}

	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await chosen.execute.call(this, client, itemIndex);
			returnData.push(...this.helpers.constructExecutionMetaData(results, { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex, chosen.labels);
			// A stopped execution ends here whatever Continue On Fail says: no error item for each row left.
			if (!this.continueOnFail() || error instanceof CancelledError) throw nodeError;
			// The explanation goes into the json itself, where the next nodes (and the output panel) see it.
			returnData.push({ json: errorOutputJson(nodeError, error, chosen.labels), pairedItem: { item: itemIndex } });
		}
	}

	return [returnData];
}
