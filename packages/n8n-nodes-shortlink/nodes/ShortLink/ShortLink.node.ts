import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as domain from './actions/domain/Domain.resource';
import * as link from './actions/link/Link.resource';
import * as report from './actions/report/Report.resource';
import { router } from './actions/router';
import * as stats from './actions/stats/Stats.resource';
import { shortLinkApiTest } from '../shared/methods/credentialTest';
import { searchDomains, searchLinks } from '../shared/methods/listSearch';

export class ShortLink implements INodeType {
	// Kept literal here (not imported) so that n8n's community-node checks can read it.
	description: INodeTypeDescription = {
		displayName: 'Short Link',
		name: 'shortLink',
		icon: { light: 'file:../../icons/shortLink.svg', dark: 'file:../../icons/shortLink.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Shorten URLs with UTM parameters, manage short links and read their click statistics',
		// The node's Docs link: the user guide, for marketers (the editor opens this address as it is; the codex's
		// primaryDocumentation, the same page, gets n8n's "?utm_…" query appended, so neither has a #fragment).
		documentationUrl: 'https://github.com/shortlink-integrations/shortlink-integrations/blob/main/docs/n8n.md',
		defaults: { name: 'Short Link' },
		// The AI Agent's tool variant (n8n names it "Short Link Tool"): the description an agent reads to choose it.
		usableAsTool: {
			replacements: {
				description:
					'Creates short links with UTM parameters, finds the link a URL already has, changes or deletes links, reads click statistics, builds campaign click reports and makes QR codes. Find or Create is safe to repeat (it returns the existing link); Create makes a new link on every call; Delete removes a link for good and is safe to repeat; Get, Find, Get Many, Make QR Code, Statistic, Report, Domain and Account only read. Every link comes back with its short URL, target, title, status and clicks; a QR code comes as a PNG or SVG file, a report as one row per link and day (or per campaign).',
			},
		},
		// For n8n's workflow builder: when to pick this node and what goes with it.
		builderHint: {
			searchHint:
				'URL shortener: shorten a URL into a short link with UTM campaign parameters (utm_source, utm_medium, utm_campaign), find or create the short link of a URL without duplicates, update or delete links, click statistics per day, country, device, browser and referrer. For new links or click milestones as a trigger, use the Short Link Trigger.',
			relatedNodes: [
				{ nodeType: 'n8n-nodes-shortlink.shortLinkTrigger', relationHint: 'Starts a workflow when a link is created or reaches a number of clicks' },
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'shortLinkApi', required: true, testedBy: 'shortLinkApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Domain', value: 'domain' },
					{ name: 'Link', value: 'link' },
					{ name: 'Report', value: 'report' },
					{ name: 'Statistic', value: 'stats' },
				],
				default: 'link',
			},
			...link.description,
			...stats.description,
			...report.description,
			...domain.description,
			...account.description,
		],
	};

	methods = {
		listSearch: { searchLinks, searchDomains },
		credentialTest: { shortLinkApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
