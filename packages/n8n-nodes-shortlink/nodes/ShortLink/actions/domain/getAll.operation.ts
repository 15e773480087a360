import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';

// Nothing to set: what it lists is said in the operation's description.
const properties: INodeProperties[] = [];

const displayOptions = { show: { resource: ['domain'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
): Promise<IDataObject[]> {
	const domains = await client.listDomains();
	return domains as unknown as IDataObject[];
}
