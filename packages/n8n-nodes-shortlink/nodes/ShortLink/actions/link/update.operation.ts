import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { checkSlug, type UpdateLinkInput } from '../../../core';

import type { ShortLinkClient } from '../../transport/client';
import { linkLocator, utmCollection } from '../common.descriptions';
import { readExpiresAt, readLinkId, readUtm, withoutEmpty, withUtm } from '../helpers';

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
				displayName: 'Remove Title',
				name: 'removeTitle',
				type: 'boolean',
				default: false,
				description: 'Whether to remove the title so that the link has none',
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
				description: 'New label of the link. To remove the title, use "Remove Title".',
			},
		],
	},
	// n8n shows no hint on a collection (and a notice is a yellow warning box): the hint goes on each UTM field.
	{
		...utmCollection,
		description:
			'Campaign parameters added to the new target URL, or to the link\'s current one when no new target URL is set; existing parameters of the same name are replaced',
		options: (utmCollection.options as INodeProperties[]).map((option) => ({
			...option,
			hint: 'Added to the new target URL, or to the link\'s current one',
		})),
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

	// A value and its "Remove" switch together leave the intent open: ask instead of guessing.
	for (const [field, remove, label, removeLabel] of [
		['title', 'removeTitle', 'Title', 'Remove Title'],
		['expiresAt', 'removeExpiry', 'Expires At', 'Remove Expiry'],
		['password', 'removePassword', 'Password', 'Remove Password'],
	] as const) {
		if (fields[remove] === true && fields[field] !== undefined) {
			throw new NodeOperationError(this.getNode(), `Both "${label}" and "${removeLabel}" are set`, {
				itemIndex,
				description: `Set a new value in "${label}" or turn on "${removeLabel}", not both.`,
			});
		}
	}

	if (fields.targetUrl !== undefined) patch.targetUrl = withUtm(String(fields.targetUrl).trim(), utm);
	else if (utm) patch.targetUrl = withUtm((await client.getLink(id)).targetUrl, utm);
	const slug = fields.slug === undefined ? '' : String(fields.slug).trim();
	if (slug !== '') patch.slug = checkSlug(slug);
	if (fields.removeTitle === true) patch.title = '';
	else if (fields.title !== undefined) patch.title = String(fields.title);
	if (fields.active !== undefined) patch.active = fields.active === true;

	if (fields.removeExpiry === true) patch.expiresAt = null;
	else if (fields.expiresAt !== undefined) patch.expiresAt = readExpiresAt(this, fields.expiresAt);
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
