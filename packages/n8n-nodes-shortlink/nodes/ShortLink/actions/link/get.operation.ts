import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator, simplifyField } from '../common.descriptions';
import { linkOutput, readLinkId } from '../helpers';

const properties: INodeProperties[] = [linkLocator, simplifyField];

const displayOptions = { show: { resource: ['link'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const link = await client.getLink(await readLinkId(this, client, itemIndex));
	return linkOutput(this, itemIndex, [link]);
}
