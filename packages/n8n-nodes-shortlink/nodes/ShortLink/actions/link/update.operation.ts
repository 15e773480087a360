import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { UpdateLinkInput } from '@shortlink/core/portable';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator, utmCollection } from '../common.descriptions';
import { readLinkId, readUtm, toIsoTimestamp, withoutEmpty, withUtm } from '../helpers';

const properties: INodeProperties[] = [
	linkLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether the short URL redirects. Turn off to pause the link without deleting it.',
			},
			{
				displayName: 'Expires At',
				name: 'expiresAt',
				type: 'dateTime',
				default: '',
				description: 'When the short URL stops redirecting',
			},
			{
				displayName: 'Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'New password visitors must enter (4 to 128 characters)',
			},
			{
				displayName: 'Remove Expiry',
				name: 'removeExpiry',
				type: 'boolean',
				default: false,
				description: 'Whether to remove the expiry date so that the link never expires',
			},
			{
				displayName: 'Remove Password',
				name: 'removePassword',
				type: 'boolean',
				default: false,
				description: 'Whether to remove the password protection',
			},
			{
				displayName: 'Slug',
				name: 'slug',
				type: 'string',
				default: '',
				placeholder: 'e.g. spring-sale',
				description: 'New path of the short URL: letters, digits, "-" and "_"',
			},
			{
				displayName: 'Target URL',
				name: 'targetUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.org/summer-sale',
				description: 'New page the short URL redirects to',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'New label of the link',
			},
		],
	},
	{
		...utmCollection,
		hint: 'Applied to the new target URL, or to the current one when no new target URL is set',
	},
];

const displayOptions = { show: { resource: ['link'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const id = await readLinkId(this, client, itemIndex);
	const fields = withoutEmpty(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
	const utm = readUtm(this, itemIndex);
	const patch: UpdateLinkInput = {};

	if (fields.targetUrl !== undefined) patch.targetUrl = withUtm(String(fields.targetUrl).trim(), utm);
	else if (utm) patch.targetUrl = withUtm((await client.getLink(id)).targetUrl, utm);
	if (fields.slug !== undefined) patch.slug = String(fields.slug).trim();
	if (fields.title !== undefined) patch.title = String(fields.title);
	if (fields.active !== undefined) patch.active = fields.active === true;

	if (fields.removeExpiry === true) patch.expiresAt = null;
	else if (fields.expiresAt !== undefined) patch.expiresAt = toIsoTimestamp(fields.expiresAt);
	if (fields.removePassword === true) patch.password = null;
	else if (fields.password !== undefined) patch.password = String(fields.password);

	if (Object.keys(patch).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update: no field was set', {
			itemIndex,
			description: 'Add at least one field under "Update Fields" or a UTM parameter.',
		});
	}
	const link = await client.updateLink(id, patch);
	return [link as unknown as IDataObject];
}
