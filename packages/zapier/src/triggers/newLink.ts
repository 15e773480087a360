import { defineTrigger, type Bundle, type ZObject } from 'zapier-platform-core';
import { checkNewLinksState, type NewLinksState } from '@shortlink/core/portable';
import { clientFor } from '../client';
import { linkOutputFields, linkSample } from '../fields/linkOutput';

/** Links per API page (the API's largest page): a quiet poll reads one page, so one request. */
export const NEW_LINK_PAGE_SIZE = 100;
/** Pages per poll; a larger burst is finished on the next poll (the state remembers where). */
export const NEW_LINK_MAX_PAGES = 5;
/** The Zap editor shows at most three samples, and a short answer keeps its test fast. */
export const SAMPLE_SIZE = 3;
/** Kept well past any polling interval; every poll renews it. */
const STATE_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * How no link is lost: Zapier deduplicates by `id`, but only among what a poll returns, so returning the
 * newest page alone would drop a burst larger than a page. Instead the core's pollNewLinks walks back
 * from the newest link to the mark of the previous poll, and its state (plain JSON) lives in z.cache.
 * Chosen over "page back through a look-back window" because a quiet poll then costs exactly one request
 * whatever the account's link volume, and nothing hinges on guessing the polling interval.
 *
 * The state is kept per Zap (bundle.meta.zap.id) and per authentication (cache scope 'auth'): a state
 * shared by two Zaps would let one consume the links of the other. Without a Zap id (a manual
 * `zapier-platform invoke`, or if Zapier stops sending it) the trigger keeps no state and returns the
 * newest page, Zapier's classic polling. Without a saved state (first poll, expired cache, or Zapier
 * filling its dedupe table) it sets the mark and also returns the newest page, so Zapier's dedupe starts
 * from there; returning a link twice is harmless, Zapier drops known ids.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const client = clientFor(z, bundle);
  if (bundle.meta?.isLoadingSample) {
    return (await client.listLinks({ limit: SAMPLE_SIZE })).links.slice(0, SAMPLE_SIZE);
  }
  const zapId = bundle.meta?.zap?.id;
  if (!zapId) {
    return (await client.listLinks({ limit: NEW_LINK_PAGE_SIZE })).links;
  }
  const cacheKey = `new_link:zap:${zapId}`;
  const saved = await readState(z, cacheKey);
  const options = { pageSize: NEW_LINK_PAGE_SIZE, maxPages: NEW_LINK_MAX_PAGES };
  if (saved === undefined || bundle.meta?.isPopulatingDedupe) {
    // Mark first, then read: a link created in between is returned now and again next poll (deduped),
    // never in neither.
    const { state } = await client.pollNewLinks(undefined, options);
    const newest = await client.listLinks({ limit: NEW_LINK_PAGE_SIZE });
    await saveState(z, cacheKey, state);
    return newest.links;
  }
  const { links, state } = await client.pollNewLinks(saved, options);
  await saveState(z, cacheKey, state);
  return [...links].reverse(); // the core returns oldest → newest; Zapier wants newest first
}

/** z.cache's scope argument is in the runtime but missing from the typings. */
type ScopedCache = {
  get(key: string, scope?: string[]): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number, scope?: string[]): Promise<unknown>;
};

/** A stored state the core rejects (e.g. written by another version) starts over instead of failing every poll. */
async function readState(z: ZObject, key: string): Promise<NewLinksState | undefined> {
  const stored = await (z.cache as ScopedCache).get(key, ['auth']);
  try {
    return checkNewLinksState(stored);
  } catch (error) {
    z.console.warn(`new_link: discarding the stored poll state (${(error as Error).message})`);
    return undefined;
  }
}

async function saveState(z: ZObject, key: string, state: NewLinksState): Promise<void> {
  await (z.cache as ScopedCache).set(key, state, STATE_TTL_SECONDS, ['auth']);
}

export const newLink = defineTrigger({
  key: 'new_link',
  noun: 'Link',
  display: {
    label: 'New Link',
    description: 'Triggers when a new short link is created.',
  },
  operation: {
    type: 'polling',
    perform,
    sample: linkSample,
    outputFields: linkOutputFields,
  },
});
