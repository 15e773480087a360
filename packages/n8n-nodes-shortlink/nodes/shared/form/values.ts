/**
 * The form's values as the core reads them (FormValues), from an item's node parameters: main fields by
 * their key, the `utm` collection's fields back to utmSource…, the options collection flattened. Values stay
 * as people typed or mapped them; the core checks them and names the field by its label.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { FormField, FormValues } from '../../core';

import { groupOf, OPTIONS, UTM_COLLECTION, utmOptionName, type FormLayout } from './layout';

/** A resource locator's value (the link's ID or short URL, a domain's hostname); other values as they are. */
function plain(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && '__rl' in value) return (value as { value?: unknown }).value;
	return value;
}

export function readFormValues(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: readonly FormField[],
	layout: FormLayout = {},
	only?: (field: FormField) => boolean,
): FormValues {
	const values: Record<string, unknown> = {};
	const utm = context.getNodeParameter(UTM_COLLECTION.name, itemIndex, {}) as IDataObject;
	const optionsName = (layout.options ?? OPTIONS).name;
	const options = fields.some((field) => groupOf(field, layout) === 'options') ? (context.getNodeParameter(optionsName, itemIndex, {}) as IDataObject) : {};
	for (const field of fields) {
		if (only && !only(field)) continue;
		const group = groupOf(field, layout);
		if (group === 'utm') values[field.key] = utm[utmOptionName(field.key)];
		else if (group === 'options') values[field.key] = options[field.key];
		else values[field.key] = plain(context.getNodeParameter(field.key, itemIndex, ''));
	}
	return values;
}
