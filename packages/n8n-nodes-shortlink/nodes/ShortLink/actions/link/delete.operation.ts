import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator } from '../common.descriptions';
import { readLinkId } from '../helpers';

const properties: INodeProperties[] = [
	{ ...linkLocator, description: 'The short link to delete. Its short URL stops redirecting for good.' },
];

const displayOptions = { show: { resource: ['link'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const id = await readLinkId(this, client, itemIndex);
	await client.deleteLink(id);
	// The service answers with an empty body; this item tells the next node what happened.
	return [{ deleted: true, id }];
}
