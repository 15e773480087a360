import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['domain'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the verified custom domains of the account (the default domain is not one of them)',
				action: 'Get many domains',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
