import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ShortLinkClient } from '../../transport/client';
import { domainLocator, simplifyField } from '../common.descriptions';
import { linkOutput, readDomain, readRequiredString } from '../helpers';

type IfNoMatch = 'outputNotFound' | 'outputNothing' | 'error';

const properties: INodeProperties[] = [
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Target URL', value: 'targetUrl', description: 'Links that redirect to this URL (host case, default port and parameter order do not matter)' },
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
		description: 'The full target URL, query string included. The whole account is searched, oldest links too.',
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
	{
		displayName: 'If No Link Matches',
		name: 'ifNoMatch',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Output an Item Saying So',
				value: 'outputNotFound',
				description:
					'One item { found: false, message } so that the workflow goes on; an IF node can tell it from a link, which has an ID',
			},
			{
				name: 'Output Nothing',
				value: 'outputNothing',
				description:
					'No item: the nodes after this one do not run for this input item (unless the node setting "Always Output Data" is on)',
			},
			{
				name: 'Stop With an Error',
				value: 'error',
				description: 'Fails the item; with "On Error: Continue" the error goes on as an item',
			},
		],
		default: 'outputNotFound',
	},
	simplifyField,
];

const displayOptions = { show: { resource: ['link'], operation: ['find'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per matching link; when none matches, what "If No Link Matches" says (by default an item saying so). */
export async function execute(
	this: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<IDataObject[]> {
	const findBy = this.getNodeParameter('findBy', itemIndex) as 'targetUrl' | 'slug';
	const ifNoMatch = this.getNodeParameter('ifNoMatch', itemIndex, 'outputNotFound') as IfNoMatch;
	let criteria: IDataObject;
	let links;
	if (findBy === 'slug') {
		const slug = readRequiredString(this, 'slug', 'Slug', itemIndex);
		// null = the default domain, as the field's help says
		const domain = readDomain(this, itemIndex) ?? null;
		criteria = { slug, domain };
		links = await client.findLinks({ slug, domain });
	} else {
		const targetUrl = readRequiredString(this, 'targetUrl', 'Target URL', itemIndex);
		criteria = { targetUrl };
		links = await client.findLinks({ targetUrl, limit: this.getNodeParameter('limit', itemIndex, 50) as number });
	}
	if (links.length > 0) return linkOutput(this, itemIndex, links);

	const message =
		findBy === 'slug'
			? `No link has the slug "${String(criteria.slug)}" on ${criteria.domain ? `the domain ${String(criteria.domain)}` : 'the default domain'}`
			: `No link has the target URL ${String(criteria.targetUrl)}`;
	if (ifNoMatch === 'outputNothing') return [];
	if (ifNoMatch === 'error') {
		throw new NodeOperationError(this.getNode(), message, {
			itemIndex,
			description:
				findBy === 'slug'
					? 'Check the slug and the domain, or choose "Output an Item Saying So" under "If No Link Matches".'
					: 'The whole account was searched. The target URL must match with its query string (parameters in any order). Or choose "Output an Item Saying So" under "If No Link Matches".',
		});
	}
	return [{ found: false, message, ...criteria }];
}
