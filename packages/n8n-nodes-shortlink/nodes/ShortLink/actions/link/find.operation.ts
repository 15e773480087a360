import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { domainLocator } from '../common.descriptions';
import { readDomain, readRequiredString } from '../helpers';

const properties: INodeProperties[] = [
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Target URL', value: 'targetUrl', description: 'Links that redirect to exactly this URL' },
			{ name: 'Slug', value: 'slug', description: 'The link with this path on a domain' },
		],
		default: 'targetUrl',
	},
	{
		displayName: 'Target URL',
		name: 'targetUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.org/spring-sale?utm_source=newsletter',
		description: 'The full target URL, query string included',
		displayOptions: { show: { findBy: ['targetUrl'] } },
	},
	{
		displayName: 'Slug',
		name: 'slug',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. spring-sale',
		description: 'The path of the short URL after the domain',
		displayOptions: { show: { findBy: ['slug'] } },
	},
	{
		...domainLocator,
		description: 'Domain of the slug. Leave empty for the default domain.',
		displayOptions: { show: { findBy: ['slug'] } },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { findBy: ['targetUrl'] } },
	},
];

const displayOptions = { show: { resource: ['link'], operation: ['find'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs one item per matching link, none when nothing matches (turn on "Always Output Data" to continue). */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const findBy = this.getNodeParameter('findBy', itemIndex) as 'targetUrl' | 'slug';
	const links =
		findBy === 'slug'
			? await client.findLinks({
					slug: readRequiredString(this, 'slug', 'Slug', itemIndex),
					// null = the default domain, as the field's help says
					domain: readDomain(this, itemIndex) ?? null,
				})
			: await client.findLinks({
					targetUrl: readRequiredString(this, 'targetUrl', 'Target URL', itemIndex),
					limit: this.getNodeParameter('limit', itemIndex, 50) as number,
				});
	return links as unknown as IDataObject[];
}
