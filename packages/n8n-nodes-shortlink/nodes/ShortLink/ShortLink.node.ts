import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as domain from './actions/domain/Domain.resource';
import * as link from './actions/link/Link.resource';
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
		// The editor opens this address as it is. The codex's primaryDocumentation gets n8n's "?utm_…" query
		// appended, which would land behind a #fragment, so that one has none.
		documentationUrl:
			'https://github.com/shortlink-integrations/shortlink-integrations/blob/main/packages/n8n-nodes-shortlink/README.md#operations',
		defaults: { name: 'Short Link' },
		usableAsTool: true,
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
					{ name: 'Statistic', value: 'stats' },
				],
				default: 'link',
			},
			...link.description,
			...stats.description,
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
