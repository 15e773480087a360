/**
 * n8n properties generated from the core's form fields (FormField): the label, help, rules and order come
 * from the operation layer, so the n8n form says what the Zapier form says. Main fields first, then the
 * "UTM Parameters" collection (Source, Medium, Campaign, Term, Content, in that order), then the options
 * collection ("Additional Fields", "Update Fields", "Options").
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { FormField } from '../../core';

import { domainLocator, linkLocator } from '../locators';
import { groupOf, OPTIONS, UTM_COLLECTION, utmOptionName, type FormLayout } from './layout';

function choices(field: FormField): INodePropertyOptions[] {
	return (field.choices ?? []).map((choice) => ({
		name: choice.label,
		value: choice.value,
		...(choice.help ? { description: choice.help } : {}),
	}));
}

/** The widget of one field, named `name` (its key, or its name inside a collection). */
export function fieldProperty(field: FormField, name = field.key): INodeProperties {
	const base = { displayName: field.label, name, description: field.help };
	const placeholder = field.placeholder ? { placeholder: field.placeholder } : {};
	switch (field.kind) {
		case 'link':
			return { ...linkLocator, ...base, required: field.required === true };
		case 'domain':
			return { ...domainLocator, ...base };
		case 'boolean':
			return { ...base, type: 'boolean', default: field.default === true };
		case 'number':
			return {
				...base,
				type: 'number',
				default: typeof field.default === 'number' ? field.default : (field.min ?? 0),
				typeOptions: { ...(field.min === undefined ? {} : { minValue: field.min }), ...(field.max === undefined ? {} : { maxValue: field.max }) },
			};
		case 'choice':
			return { ...base, type: 'options', options: choices(field), default: typeof field.default === 'string' ? field.default : (field.choices?.[0]?.value ?? '') };
		case 'dateTime':
			return { ...base, type: 'dateTime', default: '' };
		case 'date':
			return { ...base, type: 'dateTime', typeOptions: { dateOnly: true }, default: '' };
		case 'password':
			return { ...base, type: 'string', typeOptions: { password: true }, default: '' };
		default:
			return { ...base, ...placeholder, type: 'string', default: typeof field.default === 'string' ? field.default : '' };
	}
}

function withOverride(property: INodeProperties, key: string, layout: FormLayout): INodeProperties {
	const override = layout.overrides?.[key];
	return override ? ({ ...property, ...override } as INodeProperties) : property;
}

/** The n8n properties of an operation's fields, in the core's order within each group. */
export function formProperties(fields: readonly FormField[], layout: FormLayout = {}): INodeProperties[] {
	const main = fields.filter((field) => groupOf(field, layout) === 'main');
	const utm = fields.filter((field) => groupOf(field, layout) === 'utm');
	const options = fields.filter((field) => groupOf(field, layout) === 'options');
	const properties = main.map((field) => withOverride({ ...fieldProperty(field), required: field.required === true || undefined } as INodeProperties, field.key, layout));
	if (utm.length > 0) {
		properties.push(
			withOverride(
				{
					...UTM_COLLECTION,
					type: 'collection',
					default: {},
					description: 'Campaign parameters added to the target URL; parameters of the same name already in it are replaced',
					options: utm.map((field) => withOverride({ ...fieldProperty(field, utmOptionName(field.key)), displayName: field.label.replace(/^UTM /, '') }, field.key, layout)),
				},
				UTM_COLLECTION.name,
				layout,
			),
		);
	}
	if (options.length > 0) {
		const collection = layout.options ?? OPTIONS;
		properties.push(
			withOverride(
				{ ...collection, type: 'collection', default: {}, options: options.map((field) => withOverride(fieldProperty(field), field.key, layout)) },
				collection.name,
				layout,
			),
		);
	}
	return properties.map(dropUndefined);
}

function dropUndefined(property: INodeProperties): INodeProperties {
	return Object.fromEntries(Object.entries(property).filter(([, value]) => value !== undefined)) as unknown as INodeProperties;
}
