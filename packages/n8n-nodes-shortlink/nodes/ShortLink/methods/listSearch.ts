import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { createShortLinkClient } from '../transport/client';
import { toNodeError } from '../transport/errors';

function matches(filter: string | undefined, ...values: Array<string | null | undefined>): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some((value) => (value ?? '').toLowerCase().includes(needle));
}

// With a filter the list is searched client-side (the API has no text search), page by page through the
// whole account: a call reads on until it has a screenful of matches or the list ends, up to this many
// pages (5 000 links); the cursor is handed back so that scrolling searches on from there.
const FILTERED_PAGES_PER_CALL = 50;
/** Matches that fill the picker's list: a call with a filter stops reading once it has them. */
const FILTERED_RESULTS_PER_CALL = 20;

/** Links for the "From List" picker, newest first; the filter matches title, slug or URLs. */
export async function searchLinks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	try {
		const client = await createShortLinkClient(this);
		const results: INodeListSearchResult['results'] = [];
		let cursor: string | undefined = paginationToken || undefined;
		for (let page = 0; page < (filter ? FILTERED_PAGES_PER_CALL : 1); page++) {
			// With a filter, the largest pages (fewest requests); without, the service's own page fills the list.
			const size = filter ? { limit: 100 } : {};
			const { links, nextCursor } = await client.listLinks(cursor === undefined ? size : { ...size, cursor });
			for (const link of links) {
				if (!matches(filter, link.title, link.slug, link.shortUrl, link.targetUrl)) continue;
				results.push({
					name: link.title ? `${link.title} (${link.shortUrl})` : link.shortUrl,
					value: link.id,
					url: link.shortUrl,
				});
			}
			cursor = nextCursor ?? undefined;
			if (cursor === undefined || results.length >= FILTERED_RESULTS_PER_CALL) break;
		}
		return { results, paginationToken: cursor };
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
