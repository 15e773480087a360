import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { checkSlug, type CreateLinkInput } from '../../../core';

import { readDomain, readExpiresAt, readRequiredString, readUtm, withoutEmpty, withUtm } from '../helpers';

/** The fields of a new link as Create and Find or Create read them from one item. */
export function readNewLinkInput(context: IExecuteFunctions, itemIndex: number): CreateLinkInput {
	const targetUrl = withUtm(readRequiredString(context, 'targetUrl', 'Target URL', itemIndex), readUtm(context, itemIndex));
	const extra = withoutEmpty(context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	const input: CreateLinkInput = { targetUrl };
	const domain = readDomain(context, itemIndex);
	if (domain !== undefined) input.domain = domain;
	// The slug rule is checked here, so that a typo is explained in words before anything is sent.
	const slug = extra.slug === undefined ? '' : String(extra.slug).trim();
	if (slug !== '') input.slug = checkSlug(slug);
	if (extra.title !== undefined) input.title = String(extra.title);
	if (extra.password !== undefined) input.password = String(extra.password);
	const expiresAt = readExpiresAt(context, extra.expiresAt);
	if (expiresAt !== undefined) input.expiresAt = expiresAt;
	return input;
}
