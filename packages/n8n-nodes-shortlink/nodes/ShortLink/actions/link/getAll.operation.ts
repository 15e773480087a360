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

/** Newest links first; the core follows the cursor page by page until the limit (or the end) is reached. */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const links: Link[] = [];
	if (limit <= 0) return [];
	for await (const link of client.iterateLinks()) {
		links.push(link);
		if (links.length >= limit) break;
	}
	return linkOutput(this, itemIndex, links);
}
