import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { InputError, readDateTime } from '../core';

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
	if (text.trim() === '') {
		throw new NodeOperationError(context.getNode(), 'Created Since is empty', {
			description: `Pick the date and time from which links are delivered (read in the workflow's time zone, ${context.getTimezone()}), or set Start From to New Links Only.`,
		});
	}
	let since: string;
	try {
		// Wall time without a zone means that time in the workflow's time zone, as in every date field.
		since = readDateTime(text, { field: 'Created Since', timeZone: context.getTimezone() });
	} catch (error) {
		// readDateTime refuses with an InputError that names the field and the allowed form.
		throw new NodeOperationError(context.getNode(), 'Invalid value in the field "Created Since"', {
			description: error instanceof InputError ? error.message : String(error),
		});
	}
	return { key: since, since };
}
