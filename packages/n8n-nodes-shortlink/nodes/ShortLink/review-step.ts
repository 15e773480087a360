import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { operationByKey, runOperation, sheetSafeRecord, SHEET_ROW_FIELDS, type FormValues } from '../core';

import { ADDITIONAL_FIELDS, type FormLayout } from '../shared/form/layout';
import { runContext, type N8nOperationSpec, type OperationExecuteAll } from '../shared/form/n8n-operation';
import { fieldProperty } from '../shared/form/properties';
import { readFormValues } from '../shared/form/values';
import { itemsOf } from '../shared/output';

/**
 * Find or Create's n8n widgets: its collection names, and the Review Step (issue 37) — Off, each item is one
 * Find or Create; Preview or Submit, all items are the rows of one sheet for the core's Find or Create Many
 * (its choices, labels and help are the core's). n8n's all-items path: the exposure table offers Find or
 * Create Many to n8n this way rather than as an operation of its own.
 */
const findOrCreate = operationByKey('link.findOrCreate');
const many = operationByKey('link.findOrCreateMany');
const modeField = many.fields.find((field) => field.key === 'mode')!;
const tokenField = many.fields.find((field) => field.key === 'reviewToken')!;
const layout: FormLayout = { options: ADDITIONAL_FIELDS, placement: { reuseInactive: 'main' } };

const reviewStep: INodeProperties = {
	displayName: 'Review Step',
	name: 'reviewStep',
	type: 'options',
	default: 'off',
	options: [
		{ name: 'Off (Each Item on Its Own)', value: 'off', description: 'Finds or creates the link of each item as it comes' },
		...(modeField.choices ?? []).map((choice) => ({ name: choice.label, value: choice.value, description: choice.help ?? '' })),
	],
	description: `${modeField.help} With Preview or Submit, all input items are the rows of one sheet: the first output item is the summary (with the review token), then one item per row`,
};

const reviewToken: INodeProperties = {
	...fieldProperty(tokenField),
	required: true,
	displayOptions: { show: { reviewStep: ['submit'] } },
};

function formOf(context: IExecuteFunctions, itemIndex: number): FormValues {
	return readFormValues((name, fallback) => context.getNodeParameter(name, itemIndex, fallback), findOrCreate.fields, layout);
}

/** The sheet's columns of an item, read from the Find or Create form as the item fills it. */
function rowOf(context: IExecuteFunctions, itemIndex: number): FormValues {
	const values = formOf(context, itemIndex);
	return Object.fromEntries(SHEET_ROW_FIELDS.map((field) => [field.key, values[field.key]]));
}

/** Preview or Submit: the items as one sheet; the summary item answers all of them, each row item its own. */
const executeAll: OperationExecuteAll = async function (client) {
	const step = this.getNodeParameter('reviewStep', 0, 'off') as string;
	if (step === 'off') return undefined;
	const items = this.getInputData();
	const values: FormValues = {
		mode: step,
		rows: items.map((_, itemIndex) => rowOf(this, itemIndex)),
		reviewToken: step === 'submit' ? this.getNodeParameter('reviewToken', 0, '') : '',
		reuseInactive: formOf(this, 0).reuseInactive,
	};
	const result = await runOperation(many, client, values, await runContext(this));
	for (const message of result.notices ?? []) this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	const summary: INodeExecutionData = { json: sheetSafeRecord(result.summary ?? {}) as IDataObject, pairedItem: items.map((_, item) => ({ item })) };
	const rows = (await itemsOf(this, result)).map((item, index) => ({ ...item, pairedItem: { item: (result.records[index]!.row as number) - 1 } }));
	return [summary, ...rows];
};

export const findOrCreateWidgets: N8nOperationSpec = { ...layout, hostProperties: [reviewStep, reviewToken], executeAll };
