import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { buildCampaignUrl, checkDay, readExpiry, type Link } from '../../core';

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

type LuxonLike = { toISO(): string | null; toISODate(): string | null };

function isLuxonDateTime(value: unknown): value is LuxonLike {
	return typeof value === 'object' && value !== null && typeof (value as LuxonLike).toISO === 'function' && typeof (value as LuxonLike).toISODate === 'function';
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * An expiry from a dateTime field. The picker stores wall time without a zone (`2026-12-31T00:00:00`),
 * which the core reads in the workflow's time zone; text with a zone, a Luxon DateTime from an expression
 * (its own zone) and a JS Date mean the instant they carry. An expiry that is not ahead is refused here,
 * before anything is sent. Undefined when the field is empty.
 */
export function readExpiresAt(context: IExecuteFunctions, value: unknown): string | undefined {
	if (isEmpty(value)) return undefined;
	const text = value instanceof Date ? value.toISOString() : isLuxonDateTime(value) ? value.toISO() : value;
	return readExpiry(text, { field: 'expiresAt', timeZone: context.getTimezone(), now: Date.now() });
}

/** A calendar day from a date field (`2026-03-01`), a date-time (its day as written) or a Luxon DateTime. */
export function readDay(value: unknown, field: string): string | undefined {
	if (isEmpty(value)) return undefined;
	const text = value instanceof Date ? value.toISOString() : isLuxonDateTime(value) ? value.toISODate() : value;
	return checkDay(text, field);
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

/** The ten fields people use most, in that order (the Simplify option): blocked and hasPassword are left out. */
export function simplifyLink(link: Link): IDataObject {
	const { id, shortUrl, targetUrl, title, slug, domain, clicks, active, expiresAt, createdAt } = link;
	return { id, shortUrl, targetUrl, title, slug, domain, clicks, active, expiresAt, createdAt };
}

/** Links as items: whole, or simplified when the operation's Simplify option is on. */
export function linkOutput(context: IExecuteFunctions, itemIndex: number, links: Link[]): IDataObject[] {
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	return links.map((link) => (simplify ? simplifyLink(link) : (link as unknown as IDataObject)));
}
