import type { INodeProperties } from 'n8n-workflow';
import type { FieldGroup, FormField } from '../../core';

/** Where the n8n form puts an operation's "options" fields: one collection, named as n8n users know it. */
export interface OptionsCollection {
	/** Parameter name, kept stable for saved workflows: `additionalFields`, `updateFields`, `options`, … */
	name: string;
	displayName: string;
	placeholder: string;
}

export const ADDITIONAL_FIELDS: OptionsCollection = { name: 'additionalFields', displayName: 'Additional Fields', placeholder: 'Add Field' };
export const UPDATE_FIELDS: OptionsCollection = { name: 'updateFields', displayName: 'Update Fields', placeholder: 'Add Field' };
export const OPTIONS: OptionsCollection = { name: 'options', displayName: 'Options', placeholder: 'Add Option' };

/** The UTM collection: one parameter `utm` whose options drop the `utm` prefix (`utmSource` → `source`). */
export const UTM_COLLECTION = { name: 'utm', displayName: 'UTM Parameters', placeholder: 'Add UTM Parameter' } as const;

export interface FormLayout {
	/** The collection of the "options" group; default OPTIONS. */
	options?: OptionsCollection;
	/**
	 * n8n-only touches, by core field key (or by collection name): a hint, a display condition, a default
	 * that suits n8n's widgets. Labels, help and rules stay the core's.
	 */
	overrides?: Record<string, Partial<INodeProperties>>;
	/** A field n8n shows in another group than the core's, by key (parameter names that saved workflows use). */
	placement?: Record<string, FieldGroup>;
}

export function groupOf(field: FormField, layout: FormLayout): FieldGroup {
	return layout.placement?.[field.key] ?? field.group ?? 'main';
}

/** The n8n name of a UTM field inside the `utm` collection. */
export function utmOptionName(key: string): string {
	const rest = key.replace(/^utm/, '');
	return rest.charAt(0).toLowerCase() + rest.slice(1);
}
