import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { domainLocator, newLinkOptions, targetUrlField, utmCollection } from '../common.descriptions';
import { readNewLinkInput } from './newLinkInput';

const properties: INodeProperties[] = [
	{
		...targetUrlField,
		hint: 'An existing link to this URL (UTM parameters included) is returned instead of creating a new one',
	},
	domainLocator,
	newLinkOptions,
	utmCollection,
];

const displayOptions = { show: { resource: ['link'], operation: ['findOrCreate'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Idempotent shortening: reruns of a workflow reuse the link instead of piling up duplicates. */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const { link, created } = await client.findOrCreateLink(readNewLinkInput(this, itemIndex));
	return [{ ...(link as unknown as IDataObject), created }];
}
