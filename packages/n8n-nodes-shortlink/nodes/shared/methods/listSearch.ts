import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { linkChoiceLabelWithTarget, searchLinksByText } from '../../core';
import { createShortLinkClient } from '../transport/client';
import { toNodeError } from '../transport/errors';

function matches(filter: string | undefined, value: string): boolean {
	return !filter || value.toLowerCase().includes(filter.toLowerCase());
}

// With a filter the core searches page by page through the whole account (the API has no text search): a
// call reads on until it has a screenful of matches or this many pages (5 000 links); the cursor is handed
// back so that scrolling searches on from there.
const FILTERED_PAGES_PER_CALL = 50;
/** Matches that fill the picker's list: a call with a filter stops reading once it has them. */
const FILTERED_RESULTS_PER_CALL = 20;

/** Links for the "From List" picker, newest first, each with its target; the filter matches title, slug or URLs. */
export async function searchLinks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	try {
		const client = await createShortLinkClient(this);
		const cursor = paginationToken || undefined;
		// Without a filter, the service's own page fills the list.
		const { links, nextCursor } = filter
			? await searchLinksByText((options) => client.listLinks(options), filter, {
					cursor,
					maxPages: FILTERED_PAGES_PER_CALL,
					enough: FILTERED_RESULTS_PER_CALL,
				})
			: await client.listLinks(cursor === undefined ? {} : { cursor });
		return {
			results: links.map((link) => ({ name: linkChoiceLabelWithTarget(link), value: link.id, url: link.shortUrl })),
			paginationToken: nextCursor ?? undefined,
		};
	} catch (error) {
		throw toNodeError(this.getNode(), error);
	}
}

/** Verified custom domains for the "From List" picker (empty list: the account uses the default domain only). */
export async function searchDomains(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	try {
		const client = await createShortLinkClient(this);
		const domains = await client.listDomains();
		return {
			results: domains
				.filter((domain) => matches(filter, domain.hostname))
				.map((domain) => ({ name: domain.hostname, value: domain.hostname })),
		};
	} catch (error) {
		throw toNodeError(this.getNode(), error);
	}
}
