/**
 * One core operation as n8n needs it: its properties (generated from the core's fields, shown for its
 * resource and operation), its line in the Operation dropdown, and an execute that reads the item's
 * parameters into the form's values, runs the operation and returns the records as items.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { createMemoryRunCache, runOperation, type FormValues, type Operation, type OperationContext, type OperationResult, type RunCache } from '../../core';

import { CREDENTIAL_NAME, type ShortLinkClient } from '../transport/client';
import { itemsOf } from '../output';
import type { FormLayout } from './layout';
import { formProperties } from './properties';
import { readFormValues } from './values';

/**
 * The run's cache: one per execution of the node (its items share it), so that e.g. the plan-quota
 * pre-flight reads the account once per run, not once per item.
 */
const runCaches = new WeakMap<object, RunCache>();
function runCacheOf(context: IExecuteFunctions): RunCache {
	const execution = context.getInputData();
	let cache = runCaches.get(execution);
	if (!cache) runCaches.set(execution, (cache = createMemoryRunCache()));
	return cache;
}

/**
 * The team's UTM presets, kept in the credential (one reading per execution): every workflow on the account
 * tags with the same presets and rules (core forms/utm-rules.ts).
 */
const utmPresets = new WeakMap<object, Promise<string | undefined>>();
export function utmPresetsOf(context: IExecuteFunctions): Promise<string | undefined> {
	const execution = context.getInputData();
	let presets = utmPresets.get(execution);
	if (!presets) {
		presets = context.getCredentials(CREDENTIAL_NAME).then((credentials) => (typeof credentials.utmPresets === 'string' && credentials.utmPresets.trim() !== '' ? credentials.utmPresets : undefined));
		utmPresets.set(execution, presets);
	}
	return presets;
}

/** What every run of this node tells the core about itself. */
export async function runContext(context: IExecuteFunctions): Promise<OperationContext> {
	const presets = await utmPresetsOf(context);
	return { timeZone: context.getTimezone(), runSize: context.getInputData().length, cache: runCacheOf(context), ...(presets === undefined ? {} : { utmPresets: presets }) };
}

export type OperationExecute = (this: IExecuteFunctions, client: ShortLinkClient, itemIndex: number) => Promise<INodeExecutionData[]>;

/**
 * An operation that, as the user chose, takes all of the execution's items at once (Find or Create's
 * Review Step): its items, each paired with the input items it answers; undefined when it runs per item.
 */
export type OperationExecuteAll = (this: IExecuteFunctions, client: ShortLinkClient) => Promise<INodeExecutionData[] | undefined>;

export interface N8nOperation {
	operation: Operation;
	/** The line in the resource's Operation dropdown. */
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute: OperationExecute;
}

export interface N8nOperationSpec extends FormLayout {
	/** n8n's "action" text, e.g. "Create a link". */
	action: string;
	/** Short text under the operation's name in the dropdown; default: the core's description. */
	summary?: string;
	/** Parameters only n8n has (Simplify, If No Link Matches), after the generated ones. */
	hostProperties?: INodeProperties[];
	/** n8n-only shaping of the result (e.g. Simplify), given the item's index. */
	shape?: (context: IExecuteFunctions, itemIndex: number, result: OperationResult) => Promise<INodeExecutionData[]> | INodeExecutionData[];
	/** n8n-only reading of the values (e.g. Find's "Find By" chooses the fields that count). */
	values?: (context: IExecuteFunctions, itemIndex: number) => FormValues;
}

export function n8nOperation(operation: Operation, spec: N8nOperationSpec): N8nOperation {
	const properties = [...formProperties(operation.fields, spec), ...(spec.hostProperties ?? [])];
	const show = { show: { resource: [operation.resource], operation: [operation.action] } };
	return {
		operation,
		option: { name: operation.label, value: operation.action, description: spec.summary ?? operation.description, action: spec.action },
		description: updateDisplayOptions(show, properties),
		async execute(client, itemIndex) {
			const values = spec.values ? spec.values(this, itemIndex) : readFormValues(this, itemIndex, operation.fields, spec);
			const result = await runOperation(operation, client, values, await runContext(this));
			// What the user should know that is not an error (Return All stopped early, no quota pre-flight).
			for (const message of result.notices ?? []) this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
			return spec.shape ? await spec.shape(this, itemIndex, result) : await itemsOf(this, result);
		},
	};
}

/** What a `*.operation.ts` file exports. */
export type OperationModule = Pick<N8nOperation, 'option' | 'description' | 'execute'> & { executeAll?: OperationExecuteAll };

/** The Operation dropdown of a resource, its operations in alphabetical order (n8n's convention), and their properties. */
export function resourceDescription(resource: string, operations: Record<string, OperationModule>, defaultAction: string): INodeProperties[] {
	const all = Object.values(operations);
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: all.map((entry) => entry.option).sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultAction,
		},
		...all.flatMap((entry) => entry.description),
	];
}
