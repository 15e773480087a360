import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { CreateLinkInput } from '@shortlink/core/portable';

import { readDomain, readRequiredString, readUtm, toIsoTimestamp, withoutEmpty, withUtm } from '../helpers';

/** The fields of a new link as Create and Find or Create read them from one item. */
export function readNewLinkInput(context: IExecuteFunctions, itemIndex: number): CreateLinkInput {
	const targetUrl = withUtm(readRequiredString(context, 'targetUrl', 'Target URL', itemIndex), readUtm(context, itemIndex));
	const extra = withoutEmpty(context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	const input: CreateLinkInput = { targetUrl };
	const domain = readDomain(context, itemIndex);
	if (domain !== undefined) input.domain = domain;
	if (extra.slug !== undefined) input.slug = String(extra.slug).trim();
	if (extra.title !== undefined) input.title = String(extra.title);
	if (extra.password !== undefined) input.password = String(extra.password);
	const expiresAt = toIsoTimestamp(extra.expiresAt);
	if (expiresAt !== undefined) input.expiresAt = expiresAt;
	return input;
}
