/**
 * The link index of a connection, kept in z.cache between invocations (every Zapier step is its own short
 * invocation). The core owns the index (walk, refresh with the new-links algorithm, "the same link", the
 * stored form and its size limits); this file only gives it Zapier's storage:
 * - per connection: z.cache's 'auth' scope, and the service's address in the key;
 * - built across invocations: a step that cannot read the whole account in its time stores what it read
 *   and ends with a retryable error (errors.ts: ThrottledError), so Zapier runs it again and it goes on;
 * - refreshed on every lookup that would answer "none" (links created since: one request when there are none);
 * - a hit from the stored index is confirmed by one GET (the link may have changed or gone);
 * - its age is bounded: after INDEX_MAX_AGE_MS the account is read anew, so targets changed in the dashboard
 *   are seen at the latest then;
 * - an account of more than LINK_INDEX_LIMITS.MAX_ENTRIES links is not stored (README: size limits).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { credentialFingerprint, LINK_INDEX_LIMITS, loadLinkIndex, normalizeBaseUrl, saveLinkIndex, type SnapshotStore } from '@shortlink/core/portable';
import { clientFor, type ShortLinkClient } from './client';

/** Age bound of a stored index (since its walk began). */
export const INDEX_MAX_AGE_MS = 6 * 3600_000;
/** Unused stored indexes disappear after a day. */
const INDEX_TTL_SECONDS = 24 * 3600;

export { LINK_INDEX_LIMITS };

/** z.cache's scope argument is in the runtime but missing from the typings. */
type ScopedCache = {
  get(key: string, scope?: string[]): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number, scope?: string[]): Promise<unknown>;
};

function store(z: ZObject): SnapshotStore {
  const cache = z.cache as unknown as ScopedCache;
  return {
    get: (key) => cache.get(key, ['auth']),
    set: async (key, value) => {
      await cache.set(key, value, INDEX_TTL_SECONDS, ['auth']);
    },
  };
}

function indexKey(bundle: Bundle): string {
  let base = String(bundle.authData?.baseUrl ?? '');
  try {
    base = normalizeBaseUrl(base);
  } catch {
    // the client names a bad base URL itself
  }
  return `link-index:v1:${credentialFingerprint(base).slice(4)}`;
}

/**
 * Runs `use` with a client whose lookups share the connection's stored index; what it read is stored
 * afterwards, also when the lookup could not finish (that is how the next attempt goes on).
 */
export async function withLinkIndex<T>(z: ZObject, bundle: Bundle, use: (client: ShortLinkClient) => Promise<T>): Promise<T> {
  const key = indexKey(bundle);
  const stored = await loadLinkIndex(store(z), key);
  const client = clientFor(z, bundle, {
    snapshot: stored.snapshot,
    maxAgeMs: INDEX_MAX_AGE_MS,
    refreshAfterMs: 0,
    resumable: stored.tooLarge ? 'none' : 'stored',
  });
  const before = stored.snapshot ? JSON.stringify(stored.snapshot) : undefined;
  try {
    return await use(client);
  } finally {
    const after = client.linkIndexSnapshot();
    if (after && JSON.stringify(after) !== before && !stored.tooLarge) {
      const generation = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      const kept = await saveLinkIndex(store(z), key, after, generation);
      if (!kept) {
        z.console.log(`The account has more than ${LINK_INDEX_LIMITS.MAX_ENTRIES} links: its index is not kept in Zapier's cache; lookups walk the account in each step.`);
      }
    }
  }
}
