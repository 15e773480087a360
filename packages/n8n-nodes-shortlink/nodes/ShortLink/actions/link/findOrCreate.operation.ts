import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { completeCreatedLink } from '../../../core';

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
	const input = readNewLinkInput(this, itemIndex);
	const { link, created } = await client.findOrCreateLink(input);
	// Found or created, the same twelve fields (as Get), so a rerun gives the shape of the first run.
	return [{ ...(completeCreatedLink(link, input) as unknown as IDataObject), created }];
}
