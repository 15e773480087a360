/**
 * The node's operations: every operation of the core that the exposure table offers on n8n, under the
 * resource and operation values it names, with n8n's own widgets where it has some (below). An operation
 * added to the core appears here with no line of this package.
 */
import type { INodeProperties } from 'n8n-workflow';
import { exposureOf, isOffered, operationByKey, OPERATIONS, RESOURCE_WORDS, type ResourceName } from '../core';

import { ADDITIONAL_FIELDS, UPDATE_FIELDS } from '../shared/form/layout';
import { n8nOperation, resourceDescription, type N8nOperation, type N8nOperationSpec } from '../shared/form/n8n-operation';
import { findWidgets } from './find';
import { findOrCreateWidgets } from './review-step';
import { linkItems, simplifyField } from './simplify';

/**
 * n8n shows a field's help on hover only and no hint on a collection: Update's UTM fields show where they go
 * (the last sentence of the core's help) as a hint under each field, where the editor shows hints.
 */
const updateUtmHints = Object.fromEntries(
	operationByKey('link.update')
		.fields.filter((field) => field.group === 'utm')
		.map((field) => [field.key, { hint: (field.help ?? '').split('. ').pop()!.replace(/\.$/, '') }]),
);

/** n8n's widgets by operation key: collection names saved workflows use, Simplify, Find By, the Review Step. Nothing else. */
const WIDGETS: Readonly<Record<string, N8nOperationSpec>> = {
	'link.create': { options: ADDITIONAL_FIELDS },
	'link.findOrCreate': findOrCreateWidgets,
	'link.update': { options: UPDATE_FIELDS, overrides: updateUtmHints },
	'link.get': { hostProperties: [simplifyField], shape: linkItems },
	'link.getAll': {
		// The descriptions n8n's lint asks of Return All and Limit.
		overrides: {
			limit: { description: 'Max number of results to return' },
			returnAll: { description: 'Whether to return all results or only up to a given limit' },
		},
		hostProperties: [simplifyField],
		shape: linkItems,
	},
	'link.find': findWidgets,
	'stats.get': { options: { name: 'dayOptions', displayName: 'Day Options', placeholder: 'Add Option' } },
};

export const N8N_OPERATIONS: readonly N8nOperation[] = OPERATIONS.filter((operation) => isOffered(exposureOf(operation).n8n)).map((operation) =>
	n8nOperation(operation, WIDGETS[operation.key]),
);

/** The operations of each resource by their n8n value: the router and the dropdowns read this. */
export const BY_RESOURCE: Readonly<Record<string, Readonly<Record<string, N8nOperation>>>> = N8N_OPERATIONS.reduce<Record<string, Record<string, N8nOperation>>>((all, entry) => {
	(all[entry.exposure.resource] ??= {})[entry.exposure.operation] = entry;
	return all;
}, {});

/** The resource of the core's first operation (Link). */
const defaultResource = N8N_OPERATIONS[0]!.exposure.resource;

/** The Resource dropdown (resources by their name, Link the default) and each resource's operations. */
export const RESOURCE_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.keys(BY_RESOURCE)
			.map((resource) => ({ name: RESOURCE_WORDS[resource as ResourceName]?.n8n ?? resource, value: resource }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	},
	...Object.entries(BY_RESOURCE).flatMap(([resource, operations]) => resourceDescription(resource, Object.values(operations))),
];
