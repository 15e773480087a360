import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { buildCampaignUrl } from '@shortlink/core/portable';

import type { ShortLinkClient } from '../transport/client';

export type UtmParameters = { source?: string; medium?: string; campaign?: string; term?: string; content?: string };

/** A required text parameter, trimmed; empty input stops the item with the field named. */
export function readRequiredString(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = context.getNodeParameter(name, itemIndex, '');
	const text = typeof value === 'string' ? value.trim() : value === null || value === undefined ? '' : String(value);
	if (text === '') {
		throw new NodeOperationError(context.getNode(), `The field "${label}" is required`, {
			itemIndex,
			description: `Enter a value for "${label}" or map one from the input data.`,
		});
	}
	return text;
}

/** Drops empty strings that n8n collections keep for fields the user added but left blank. */
export function withoutEmpty<T extends IDataObject>(values: T): Partial<T> {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(values)) {
		if (value === '' || value === undefined || value === null) continue;
		result[key] = value;
	}
	return result as Partial<T>;
}

/** n8n hands dateTime fields over as ISO text, or as a Luxon DateTime when set by an expression. */
export function toIsoTimestamp(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'object' && 'toISO' in value && typeof value.toISO === 'function') {
		return String(value.toISO());
	}
	if (value instanceof Date) return value.toISOString();
	return String(value);
}

/** The UTM section of an item, or undefined when every field is empty. */
export function readUtm(context: IExecuteFunctions, itemIndex: number): UtmParameters | undefined {
	const utm = withoutEmpty(context.getNodeParameter('utm', itemIndex, {}) as IDataObject);
	const result: UtmParameters = {};
	for (const key of ['source', 'medium', 'campaign', 'term', 'content'] as const) {
		if (utm[key] !== undefined) result[key] = String(utm[key]).trim();
	}
	return Object.keys(result).length > 0 ? result : undefined;
}

/** Applies the UTM section, if any, with the core's builder (it validates the URL). */
export function withUtm(targetUrl: string, utm: UtmParameters | undefined): string {
	return utm ? buildCampaignUrl(targetUrl, utm) : targetUrl;
}

/** The hostname chosen in the Domain locator, or undefined for the default domain. */
export function readDomain(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const domain = context.getNodeParameter('domain', itemIndex, '', { extractValue: true });
	const hostname = typeof domain === 'string' ? domain.trim() : '';
	return hostname === '' ? undefined : hostname;
}

/** The id of the link chosen in the Link locator; a short URL is resolved through the core. */
export async function readLinkId(
	context: IExecuteFunctions,
	client: ShortLinkClient,
	itemIndex: number,
): Promise<string> {
	const locator = context.getNodeParameter('link', itemIndex) as INodeParameterResourceLocator | string;
	const mode = typeof locator === 'object' && locator !== null ? locator.mode : 'id';
	const raw = typeof locator === 'object' && locator !== null ? locator.value : locator;
	const value = raw === null || raw === undefined ? '' : String(raw).trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), 'The field "Link" is required', {
			itemIndex,
			description: 'Pick a link from the list, or enter its ID or its short URL.',
		});
	}
	if (mode !== 'url') return value;
	// The core parses the URL and applies the domain rules (default domain → domain null, custom → hostname).
	const link = await client.findLinkByShortUrl(value);
	if (!link) {
		throw new NodeOperationError(context.getNode(), `No link of this account has the short URL ${value}`, {
			itemIndex,
			description: 'Check the "Link" field: enter the full short URL, e.g. https://sho.rt/spring-sale.',
		});
	}
	return link.id;
}
