import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteLink from './delete.operation';
import * as find from './find.operation';
import * as findOrCreate from './findOrCreate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, deleteLink as delete, find, findOrCreate, get, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['link'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Shorten a URL', action: 'Create a link' },
			{ name: 'Delete', value: 'delete', description: 'Delete a link for good', action: 'Delete a link' },
			{
				name: 'Find',
				value: 'find',
				description: 'Find links by target URL or slug',
				action: 'Find links',
			},
			{
				name: 'Find or Create',
				value: 'findOrCreate',
				description: 'Return the link to a URL, creating it only if none exists',
				action: 'Find or create a link',
			},
			{ name: 'Get', value: 'get', description: 'Get a link', action: 'Get a link' },
			{ name: 'Get Many', value: 'getAll', description: 'List links, newest first', action: 'Get many links' },
			{ name: 'Update', value: 'update', description: 'Change a link', action: 'Update a link' },
		],
		default: 'create',
	},
	...create.description,
	...deleteLink.description,
	...find.description,
	...findOrCreate.description,
	...get.description,
	...getAll.description,
	...update.description,
];
