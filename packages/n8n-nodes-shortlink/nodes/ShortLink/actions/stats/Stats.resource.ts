import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['stats'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the click statistics of a link: per day, country, device, browser and referrer',
				action: 'Get link statistics',
			},
		],
		default: 'get',
	},
	...get.description,
];
