/**
 * One core operation as n8n needs it: its properties (generated from the core's fields, shown for its
 * resource and operation), its line in the Operation dropdown, and an execute that reads the item's
 * parameters into the form's values, runs the operation and returns the records as items.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	createMemoryRunCache,
	errorLabels,
	exposureOf,
	firstSentence,
	isOffered,
	OPERATIONS,
	repeatSentence,
	runOperation,
	type FieldLabels,
	type FormValues,
	type N8nExposure,
	type Operation,
	type OperationContext,
	type OperationResult,
	type RunCache,
} from '../../core';

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
	/** The resource and operation values n8n offers it as (the core's exposure table). */
	exposure: N8nExposure;
	/** The labels its errors name fields by (the core's, the same on every host). */
	labels: FieldLabels;
	/** The line in the resource's Operation dropdown. */
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute: OperationExecute;
	/** Set where n8n may run the operation over all items at once (Find or Create's Review Step). */
	executeAll?: OperationExecuteAll;
}

/** What n8n adds to an operation: its own widgets only (the words and rules are the core's). */
export interface N8nOperationSpec extends FormLayout {
	/** Parameters only n8n has that decide which fields follow (Find By), before the generated ones. */
	leadingProperties?: INodeProperties[];
	/** Parameters only n8n has (Simplify, If No Link Matches), after the generated ones. */
	hostProperties?: INodeProperties[];
	/** n8n-only shaping of the result (e.g. Simplify), given the item's index. */
	shape?: (context: IExecuteFunctions, itemIndex: number, result: OperationResult) => Promise<INodeExecutionData[]> | INodeExecutionData[];
	/** n8n-only reading of the values (e.g. Find's "Find By" chooses the fields that count). */
	values?: (context: IExecuteFunctions, itemIndex: number) => FormValues;
	/** n8n's all-items path, when the user chose it (the router tries it before running item by item). */
	executeAll?: OperationExecuteAll;
}

/** Whether repeating is safe, under the first field of an operation that writes (the core's sentence). */
function repeatHint(operation: Operation, properties: INodeProperties[]): INodeProperties[] {
	if (operation.safety.readOnly || properties.length === 0) return properties;
	const [first, ...rest] = properties;
	return [{ ...first!, hint: repeatSentence(operation, 'n8n', OPERATIONS) }, ...rest];
}

export function n8nOperation(operation: Operation, spec: N8nOperationSpec = {}): N8nOperation {
	const exposure = exposureOf(operation).n8n;
	if (!isOffered(exposure)) throw new Error(`n8n does not offer ${operation.key}: ${exposure.notOffered}`);
	const properties = [...(spec.leadingProperties ?? []), ...repeatHint(operation, formProperties(operation.fields, spec)), ...(spec.hostProperties ?? [])];
	const show = { show: { resource: [exposure.resource], operation: [exposure.operation] } };
	return {
		operation,
		exposure,
		labels: errorLabels(operation.fields),
		option: { name: operation.label, value: exposure.operation, description: firstSentence(operation.description), action: exposure.action },
		description: updateDisplayOptions(show, properties),
		...(spec.executeAll ? { executeAll: spec.executeAll } : {}),
		async execute(client, itemIndex) {
			const parameter = (name: string, fallback: unknown) => this.getNodeParameter(name, itemIndex, fallback);
			const values = spec.values ? spec.values(this, itemIndex) : readFormValues(parameter, operation.fields, spec);
			const result = await runOperation(operation, client, values, await runContext(this));
			// What the user should know that is not an error (Return All stopped early, no quota pre-flight).
			for (const message of result.notices ?? []) this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
			return spec.shape ? await spec.shape(this, itemIndex, result) : await itemsOf(this, result);
		},
	};
}

/** The Operation dropdown of a resource, its operations in alphabetical order (n8n's convention), and their properties; the first one is the default. */
export function resourceDescription(resource: string, all: readonly N8nOperation[]): INodeProperties[] {
	const firstOperation = all[0]!.exposure.operation;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: all.map((entry) => entry.option).sort((a, b) => a.name.localeCompare(b.name)),
			default: firstOperation,
		},
		...all.flatMap((entry) => entry.description),
	];
}
