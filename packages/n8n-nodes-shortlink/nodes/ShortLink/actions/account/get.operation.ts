import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';

const properties: INodeProperties[] = [
	{
		displayName: 'Returns the account of the API key with its plan and the usage of the current billing period',
		name: 'accountNotice',
		type: 'notice',
		default: '',
	},
];

const displayOptions = { show: { resource: ['account'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
): Promise<IDataObject[]> {
	const account = await client.getAccount();
	return [account as unknown as IDataObject];
}
