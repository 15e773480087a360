import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { completeCreatedLink } from '../../../core';

import type { ShortLinkClient } from '../../transport/client';
import { domainLocator, newLinkOptions, targetUrlField, utmCollection } from '../common.descriptions';
import { readNewLinkInput } from './newLinkInput';

const properties: INodeProperties[] = [
	{
		...targetUrlField,
		hint: 'An existing link to this URL (after the UTM parameters below are added) is returned instead of creating a new one',
	},
	domainLocator,
	newLinkOptions,
	utmCollection,
	{
		displayName: 'Reuse Paused, Blocked or Expired Links',
		name: 'reuseInactive',
		type: 'boolean',
		default: false,
		description:
			'Whether an existing link that does not redirect (paused, blocked or expired) counts as found. Off: a new link is created beside it.',
	},
];

const displayOptions = { show: { resource: ['link'], operation: ['findOrCreate'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Idempotent shortening: reruns of a workflow reuse the link instead of piling up duplicates. "The same link"
 * is the core's (docs/api-contract.md): the target with the UTM fields applied, domain, and slug when given.
 * The client's link index is shared by all items of this execution: the account is walked once.
 */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const input = readNewLinkInput(this, itemIndex);
	const reuseInactive = this.getNodeParameter('reuseInactive', itemIndex, false) as boolean;
	const { link, created } = await client.findOrCreateLink(input, { reuseInactive });
	// Found or created, the same twelve fields (as Get), so a rerun gives the shape of the first run.
	return [{ ...(completeCreatedLink(link, input) as unknown as IDataObject), created }];
}
