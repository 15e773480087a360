import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { completeCreatedLink } from '../../../core';

import type { ShortLinkClient } from '../../transport/client';
import { domainLocator, newLinkOptions, targetUrlField, utmCollection } from '../common.descriptions';
import { readNewLinkInput } from './newLinkInput';

const properties: INodeProperties[] = [
	{ ...targetUrlField, hint: 'UTM parameters below are appended to this URL' },
	domainLocator,
	newLinkOptions,
	utmCollection,
];

const displayOptions = { show: { resource: ['link'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const input = readNewLinkInput(this, itemIndex);
	// The same twelve fields as Get: the spec fixes what the creation answer leaves out.
	return [completeCreatedLink(await client.createLink(input), input) as unknown as IDataObject];
}
