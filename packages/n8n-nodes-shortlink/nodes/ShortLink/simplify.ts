import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { OperationRecord, OperationResult } from '../core';

import { itemsOf } from '../shared/output';

/** n8n's UX rule for answers of more than 10 fields (a link has 12); off by default so that every operation returns the link as Get does. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	hint: 'Ten fields: short URL, ID, target URL, title, slug, domain, clicks, active, expires at, created at',
};

const LEFT_OUT = new Set(['blocked', 'hasPassword']);

function simplified(record: OperationRecord): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([key]) => !LEFT_OUT.has(key))) as IDataObject;
}

/** Link records as items: whole, or without blocked and hasPassword when Simplify is on. */
export async function linkItems(context: IExecuteFunctions, itemIndex: number, result: OperationResult): Promise<INodeExecutionData[]> {
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const records = simplify ? result.records.map(simplified) : result.records;
	return await itemsOf(context, result, records);
}
