import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { operationByKey, type OperationResult } from '../core';

import type { FormLayout } from '../shared/form/layout';
import type { N8nOperationSpec } from '../shared/form/n8n-operation';
import { readFormValues } from '../shared/form/values';
import { linkItems, simplifyField } from './simplify';

/**
 * Find's n8n widgets: "Find By" shows one search at a time (the core takes whichever of target URL and slug
 * is filled), "If No Link Matches" says what an item gets when nothing matches, and Simplify.
 */
const find = operationByKey('link.find');

type FindBy = 'targetUrl' | 'slug';
type IfNoMatch = 'outputNothing' | 'outputNotFound' | 'error';

const byTarget = { show: { findBy: ['targetUrl'] } };
const bySlug = { show: { findBy: ['slug'] } };

const findBy: INodeProperties = {
	displayName: 'Find By',
	name: 'findBy',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Target URL', value: 'targetUrl', description: 'Links that lead to this URL with the UTM parameters below, on the domain' },
		{ name: 'Slug', value: 'slug', description: 'The link with this slug on the domain' },
	],
	default: 'targetUrl',
};

const ifNoMatch: INodeProperties = {
	displayName: 'If No Link Matches',
	name: 'ifNoMatch',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Output Nothing',
			value: 'outputNothing',
			description: 'No item, as n8n\'s search nodes do: the next nodes do not run for this input item (unless the node setting "Always Output Data" is on)',
		},
		{
			name: 'Output an Item Saying So',
			value: 'outputNotFound',
			description: 'One item { found: false, message } so that the workflow goes on; an IF node can tell it from a link, which has an ID',
		},
		{ name: 'Stop With an Error', value: 'error', description: 'Fails the item; with "On Error: Continue" the error goes on as an item' },
	],
	default: 'outputNothing',
};

const layout: FormLayout = {
	overrides: {
		targetUrl: { required: true, displayOptions: byTarget },
		slug: { required: true, displayOptions: bySlug },
		utm: { displayOptions: byTarget },
		limit: { description: 'Max number of results to return', displayOptions: byTarget },
	},
	placement: { limit: 'main' },
};

/** Find By chooses which of the two searches counts: the other field's value is not sent. */
function values(context: IExecuteFunctions, itemIndex: number) {
	const by = context.getNodeParameter('findBy', itemIndex, 'targetUrl') as FindBy;
	const leftOut = by === 'slug' ? (key: string) => key === 'targetUrl' || key.startsWith('utm') : (key: string) => key === 'slug';
	return readFormValues((name, fallback) => context.getNodeParameter(name, itemIndex, fallback), find.fields, layout, (field) => !leftOut(field.key));
}

/** No match: nothing (n8n's convention), an item saying so, or an error — as "If No Link Matches" says. */
async function shape(context: IExecuteFunctions, itemIndex: number, result: OperationResult): Promise<INodeExecutionData[]> {
	if (result.records.length > 0) return await linkItems(context, itemIndex, result);
	const choice = context.getNodeParameter('ifNoMatch', itemIndex, 'outputNothing') as IfNoMatch;
	const summary = (result.summary ?? {}) as IDataObject;
	if (choice === 'outputNotFound') return [{ json: summary }];
	if (choice === 'error') {
		throw new NodeOperationError(context.getNode(), String(summary.message), {
			itemIndex,
			description: 'The whole account was searched. Check the target URL, UTM parameters, slug and domain, or choose another "If No Link Matches".',
		});
	}
	return [];
}

export const findWidgets: N8nOperationSpec = {
	...layout,
	// "Find By" goes first: it decides which fields follow.
	leadingProperties: [findBy],
	hostProperties: [ifNoMatch, simplifyField],
	values,
	shape,
};
