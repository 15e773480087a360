/**
 * The n8n formatting step (docs/architecture.md, "Host formatting steps"): one item per record, the record
 * as its json, sheet-safe (the core's rule: text that a spreadsheet would run as a formula gets a leading
 * apostrophe, the stored value stays under `raw`); files an operation makes (QR codes, CSV reports) as
 * binary data of the item they belong to.
 */
import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { sheetSafeRecord, type OperationFile, type OperationRecord, type OperationResult } from '../core';

async function binaryOf(context: IExecuteFunctions, files: OperationFile[]): Promise<IBinaryKeyData | undefined> {
	if (files.length === 0) return undefined;
	const binary: IBinaryKeyData = {};
	for (const [index, file] of files.entries()) {
		binary[index === 0 ? 'data' : `data${index}`] = await context.helpers.prepareBinaryData(Buffer.from(file.data), file.fileName, file.mimeType);
	}
	return binary;
}

export async function itemsOf(context: IExecuteFunctions, result: OperationResult, records = result.records): Promise<INodeExecutionData[]> {
	const files = result.files ?? [];
	const items: INodeExecutionData[] = [];
	for (const [index, record] of records.entries()) {
		const binary = await binaryOf(context, files.filter((file) => file.recordIndex === index));
		items.push({ json: sheetSafeRecord(record) as IDataObject, ...(binary ? { binary } : {}) });
	}
	// Files of the whole result (a report) come as one more item, named by the file.
	const whole = files.filter((file) => file.recordIndex === undefined);
	const binary = await binaryOf(context, whole);
	if (binary) items.push({ json: sheetSafeRecord({ ...result.summary, fileName: whole[0]!.fileName }) as IDataObject, binary });
	return items;
}

/** A trigger's records as the items of one poll, sheet-safe like every other item. */
export function triggerItems(context: IPollFunctions, records: readonly OperationRecord[]): INodeExecutionData[] {
	return context.helpers.returnJsonArray(records.map(sheetSafeRecord) as IDataObject[]);
}
