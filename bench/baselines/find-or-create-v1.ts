/**
 * Today's lookups before issue 13, only for the baseline column of the lookup figure: every find walked
 * the list itself, newest first, and stopped after 20 pages (the newest 2 000 links), answering "none"
 * beyond them; Find or Create then created a link. Built on today's client (its pages and creates), so the
 * two columns differ only in the lookup. The raw target URL was compared as written (new URL().href).
 */
import type { Link, ShortLinkClient } from '@shortlink/core';

const MAX_PAGES = 20;

function sameUrlV1(a: string, b: string): boolean {
  try {
    return a === b || new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

export async function findV1(client: ShortLinkClient, targetUrl: string): Promise<Link | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listLinks(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
    const hit = result.links.find((link) => sameUrlV1(link.targetUrl, targetUrl) && link.domain === null);
    if (hit) return hit;
    if (!result.nextCursor) return undefined;
    cursor = result.nextCursor;
  }
  return undefined;
}

export async function findOrCreateV1(client: ShortLinkClient, targetUrl: string): Promise<{ id: string; created: boolean }> {
  const found = await findV1(client, targetUrl);
  if (found) return { id: found.id, created: false };
  return { id: (await client.createLink({ targetUrl })).id, created: true };
}
