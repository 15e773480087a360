/**
 * The form's values as the core reads them (FormValues), from an item's node parameters: main fields by
 * their key, the `utm` collection's fields back to utmSource…, the options collection flattened. Values stay
 * as people typed or mapped them; the core checks them and names the field by its label.
 */
import type { IDataObject } from 'n8n-workflow';
import type { FormField, FormValues } from '../../core';

import { groupOf, OPTIONS, UTM_COLLECTION, utmOptionName, type FormLayout } from './layout';

/** A resource locator's value (the link's ID or short URL, a domain's hostname); other values as they are. */
function plain(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && '__rl' in value) return (value as { value?: unknown }).value;
	return value;
}

/** A node parameter by name, with the value to use when it is not set (an item's, or a trigger's). */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

export function readFormValues(
	parameter: ParameterReader,
	fields: readonly FormField[],
	layout: FormLayout = {},
	only?: (field: FormField) => boolean,
): FormValues {
	const values: Record<string, unknown> = {};
	const utm = fields.some((field) => groupOf(field, layout) === 'utm') ? (parameter(UTM_COLLECTION.name, {}) as IDataObject) : {};
	const optionsName = (layout.options ?? OPTIONS).name;
	const options = fields.some((field) => groupOf(field, layout) === 'options') ? (parameter(optionsName, {}) as IDataObject) : {};
	for (const field of fields) {
		if (only && !only(field)) continue;
		const group = groupOf(field, layout);
		if (group === 'utm') values[field.key] = utm[utmOptionName(field.key)];
		else if (group === 'options') values[field.key] = options[field.key];
		else values[field.key] = plain(parameter(field.key, ''));
	}
	return values;
}
