/**
 * n8n properties generated from the core's form fields (FormField): the label, help, rules and order come
 * from the operation layer, so the n8n form says what the Zapier form says. Main fields first, then the
 * "UTM Parameters" collection (Source, Medium, Campaign, Term, Content, in that order), then the options
 * collection ("Additional Fields", "Update Fields", "Options").
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { FieldCondition, FormField } from '../../core';

import { domainLocator, linkLocator } from '../locators';
import { groupOf, OPTIONS, UTM_COLLECTION, utmOptionName, type FormLayout } from './layout';

function choices(field: FormField): INodePropertyOptions[] {
	return (field.choices ?? []).map((choice) => ({
		name: choice.label,
		value: choice.value,
		...(choice.help ? { description: choice.help } : {}),
	}));
}

/** A boolean's default: the value it starts at when added to a collection (startValue), else its default. */
function booleanDefault(field: FormField): boolean {
	return (field.startValue ?? field.default) === true;
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
			return { ...base, type: 'boolean', default: booleanDefault(field) };
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

/** A condition's values by parameter name (`prefix` "/" names the node's own parameters from inside a collection). */
function shownFor(condition: FieldCondition, prefix = ''): IDisplayOptions['show'] {
	return Object.fromEntries(Object.entries(condition).map(([key, values]) => [`${prefix}${key}`, [...values]]));
}

/**
 * The core's show condition as n8n's displayOptions (a field inside a collection names the node's own
 * parameters with "/"), its required rule (required while shown), and no expression for a choice other
 * fields depend on (n8n cannot show the right fields for a value it only knows at run time).
 */
function withRules(property: INodeProperties, field: FormField, fields: readonly FormField[], inCollection = false): INodeProperties {
	const rules: Partial<INodeProperties> = {};
	if (field.showWhen && !inCollection) rules.displayOptions = { show: shownFor(field.showWhen) };
	if (field.showWhen && inCollection) rules.displayOptions = { show: shownFor(field.showWhen, '/') };
	if (!inCollection && field.required === true) rules.required = true;
	if (field.kind === 'choice' && fields.some((other) => other.showWhen && field.key in other.showWhen)) rules.noDataExpression = true;
	return { ...property, ...rules } as INodeProperties;
}

/** The condition all the fields share, if they share one (a collection of fields that all show for one choice). */
function sharedCondition(fields: readonly FormField[]): FieldCondition | undefined {
	const first = fields[0]?.showWhen;
	if (first === undefined) return undefined;
	return fields.every((field) => JSON.stringify(field.showWhen) === JSON.stringify(first)) ? first : undefined;
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
	const properties = main.map((field) => withOverride(withRules(fieldProperty(field), field, fields), field.key, layout));
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
		// Options that all show for one choice make a collection shown for it; others each carry their own rule.
		const shared = sharedCondition(options);
		const shown = shared ? { displayOptions: { show: shownFor(shared) } } : {};
		const optionProperty = (field: FormField) => (shared ? fieldProperty(field) : withRules(fieldProperty(field), field, fields, true));
		properties.push(
			withOverride(
				{ ...collection, type: 'collection', default: {}, ...shown, options: options.map((field) => withOverride(optionProperty(field), field.key, layout)) } as INodeProperties,
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
