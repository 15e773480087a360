import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Link } from '../../../core';

import type { ShortLinkClient } from '../../transport/client';
import { simplifyField } from '../common.descriptions';
import { linkOutput } from '../helpers';

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		hint: 'All means at most 50,000 links, read within 5 minutes: when either ends the reading first, the links read so far are returned with a warning saying why',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	simplifyField,
];

const displayOptions = { show: { resource: ['link'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Newest links first; the core follows the cursor page by page until the limit (or the end) is reached.
 * Return All is the core's readAllLinks: one budget for the whole walk (links and time), a warning in the
 * output pane when it stopped early and why; a service whose paging leads in a circle ends it with an error.
 */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) {
		const all = await client.readAllLinks();
		if (all.stoppedEarly !== undefined) {
			this.addExecutionHints({
				message: `Return All stopped early: ${all.stoppedEarly}. The ${all.links.length.toLocaleString('en-US')} newest links are returned.`,
				type: 'warning',
				location: 'outputPane',
			});
		}
		return linkOutput(this, itemIndex, all.links);
	}
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	const links: Link[] = [];
	if (limit <= 0) return [];
	for await (const link of client.iterateLinks()) {
		links.push(link);
		if (links.length >= limit) break;
	}
	return linkOutput(this, itemIndex, links);
}
