import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { wallTimeToIso } from '@shortlink/core/portable';

/** Where a trigger starts: new links only, or every link created since a moment. */
export interface StartFrom {
	/** 'new' or the ISO instant of "since"; stored with the state, so a change starts over. */
	key: string;
	since?: string;
}

/**
 * Reads "Start From". The date picker stores wall time without a zone (2026-12-31T00:00:00): it means
 * that time in the workflow's time zone. An expression may hand over a Luxon DateTime or a Date.
 */
export function readStartFrom(context: IPollFunctions): StartFrom {
	const mode = context.getNodeParameter('startFrom', 'newLinksOnly') as string;
	if (mode !== 'since') return { key: 'new' };
	const value = context.getNodeParameter('since', '') as unknown;
	let text = '';
	if (value instanceof Date) text = value.toISOString();
	else if (typeof value === 'object' && value !== null && 'toISO' in value && typeof value.toISO === 'function') text = String(value.toISO());
	else if (typeof value === 'string') text = value;
	const since = text.trim() === '' ? undefined : wallTimeToIso(text, context.getTimezone());
	if (since === undefined) {
		throw new NodeOperationError(context.getNode(), 'Invalid value in the field "Created Since"', {
			description: `"Created Since" must be a date and time, for example 2026-03-01 09:00 (in the workflow's time zone, ${context.getTimezone()}); got "${text.slice(0, 60)}".`,
		});
	}
	return { key: since, since };
}
