import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator } from '../common.descriptions';
import { readLinkId } from '../helpers';

const properties: INodeProperties[] = [linkLocator];

const displayOptions = { show: { resource: ['link'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const link = await client.getLink(await readLinkId(this, client, itemIndex));
	return [link as unknown as IDataObject];
}
