import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';

const properties: INodeProperties[] = [
	{
		displayName: 'Only verified custom domains of the account are listed; the default domain is not one of them',
		name: 'domainNotice',
		type: 'notice',
		default: '',
	},
];

const displayOptions = { show: { resource: ['domain'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
): Promise<IDataObject[]> {
	const domains = await client.listDomains();
	return domains as unknown as IDataObject[];
}
