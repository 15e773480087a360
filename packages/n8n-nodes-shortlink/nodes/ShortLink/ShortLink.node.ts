import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { agentSummary, RESOURCE_WORDS } from '../core';
import { N8N_OPERATIONS, RESOURCE_PROPERTIES } from './operations';
import { router } from './router';
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
				// Which operations write and whether repeating them is safe: generated from the core's safety.
				description: `Creates short links with UTM parameters, finds the link a URL already has, changes or deletes links, reads click statistics, builds campaign click reports and makes QR codes. ${agentSummary(
					N8N_OPERATIONS.map((entry) => entry.operation),
					'n8n',
					(operation) => (operation.resource === 'link' ? operation.label : `${RESOURCE_WORDS[operation.resource].n8n} ${operation.label}`),
				)} Every link comes back with its short URL, target, title, status and clicks; a QR code comes as a PNG or SVG file, a report as one row per link and day (or per campaign).`,
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
		// Generated from the core's operations and exposure table (operations.ts).
		properties: RESOURCE_PROPERTIES,
	};

	methods = {
		listSearch: { searchLinks, searchDomains },
		credentialTest: { shortLinkApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
