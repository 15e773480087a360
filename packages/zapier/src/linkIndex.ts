/**
 * The link index of a connection, kept in z.cache between invocations (every Zapier step is its own short
 * invocation). The core owns the index (walk, refresh with the new-links algorithm, "the same link", the
 * stored form and its size limits); this file only gives it Zapier's storage:
 * - per connection: z.cache's 'auth' scope, and the service's address in the key;
 * - read at a step's first lookup only: steps that look nothing up do not pay for reading it;
 * - built across invocations: a step that cannot read the whole account in its time stores what it read
 *   and ends with a retryable error (errors.ts: ThrottledError), so Zapier runs it again and it goes on;
 * - refreshed on every lookup that would answer "none" (links created since: one request when there are none);
 * - a hit from the stored index is confirmed by one GET (the link may have changed or gone);
 * - its age is bounded: after INDEX_MAX_AGE_MS the account is read anew; and it answers "none" (on which
 *   Find or Create creates) only from a reading of the account that began at most NONE_MAX_AGE_MS ago or
 *   ended in this step — an older one reads the account anew first (resumable across steps), so a target
 *   changed in the dashboard is seen before anything is created on its account. Cost: one full walk
 *   (a request per 100 links) for a "none" after NONE_MAX_AGE_MS; the limit left: a target changed
 *   during those minutes, after the walk passed its link;
 * - bound to the account (core stored-index.ts): the key's fingerprint and the /me account id are stored
 *   with it; another key is trusted only after GET /me names the same account, else the index is dropped;
 * - an account of more than LINK_INDEX_LIMITS.MAX_ENTRIES links is not stored (README: size limits).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { credentialFingerprint, LINK_INDEX_LIMITS, loadLinkIndex, saveLinkIndex, type CurrentOwner, type SnapshotStore } from '@shortlink/core/host';
import { clientFor, type ShortLinkClient } from './client';
import { scopedCache, serviceAddressOf } from './connectionCache';

/** Age bound of a stored index (since its walk began). */
export const INDEX_MAX_AGE_MS = 6 * 3600_000;
/** A "none" (Find or Create then creates) only from a reading of the account at most this old. */
export const NONE_MAX_AGE_MS = 10 * 60_000;
/** Unused stored indexes disappear after a day. */
const INDEX_TTL_SECONDS = 24 * 3600;
/**
 * An unchanged chunk is kept (not written again) while younger than this: a head still within
 * INDEX_MAX_AGE_MS then never names a chunk its TTL has removed (a save comes after its walk began).
 */
const REUSE_CHUNKS_FOR_MS = INDEX_TTL_SECONDS * 1000 - INDEX_MAX_AGE_MS - 3600_000;

export { LINK_INDEX_LIMITS };

function store(z: ZObject): SnapshotStore {
  const cache = scopedCache(z)!;
  return {
    get: (key) => cache.get(key, ['auth']),
    set: async (key, value) => {
      await cache.set(key, value, INDEX_TTL_SECONDS, ['auth']);
    },
  };
}

/** v2: sameness by RFC 3986 (other target fingerprints than v1's) and an owner in the head. */
function indexKey(bundle: Bundle): string {
  return `link-index:v2:${credentialFingerprint(serviceAddressOf(bundle)).slice(4)}`;
}

/** Who is asking: the base URL, the key's fingerprint, and (only when the key changed) GET /me's account id. */
function currentOwner(z: ZObject, bundle: Bundle): CurrentOwner {
  return {
    baseUrl: serviceAddressOf(bundle),
    credential: credentialFingerprint(String(bundle.authData?.apiKey ?? '').trim()),
    whoAmI: async () => {
      const account = await clientFor(z, bundle).getAccount();
      return account.id === undefined || account.id === null ? undefined : String(account.id);
    },
  };
}

/**
 * Runs `use` with a client whose lookups share the connection's stored index; what it read is stored
 * afterwards, also when the lookup could not finish (that is how the next attempt goes on). The stored index
 * is read at the step's first lookup, not before: a step that looks nothing up (Create Link, an update or
 * a QR code by id) reads none of it (up to MAX_CHUNKS values of ~150 kB) and stores nothing.
 */
export async function withLinkIndex<T>(z: ZObject, bundle: Bundle, use: (client: ShortLinkClient) => Promise<T>): Promise<T> {
  const key = indexKey(bundle);
  let stored: Awaited<ReturnType<typeof loadLinkIndex>> | undefined;
  const client = clientFor(z, bundle, {
    loadSnapshot: async () => {
      const loaded = await loadLinkIndex(store(z), key, currentOwner(z, bundle));
      if (loaded.dropped) z.console.log('The stored link index belonged to another account or service (the connection changed): the account is read anew.');
      stored = loaded;
      return { ...(loaded.snapshot ? { snapshot: loaded.snapshot } : {}), resumable: loaded.tooLarge ? 'none' : 'stored' };
    },
    maxAgeMs: INDEX_MAX_AGE_MS,
    noneMaxAgeMs: NONE_MAX_AGE_MS,
    refreshAfterMs: 0,
  });
  try {
    return await use(client);
  } finally {
    const after = client.linkIndexSnapshot();
    if (stored && after && !stored.tooLarge) {
      const generation = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      // Only what changed is written (nothing, when nothing did); see REUSE_CHUNKS_FOR_MS.
      const kept = await saveLinkIndex(store(z), key, after, generation, { owner: stored.owner, stored: stored.stored, reuseForMs: REUSE_CHUNKS_FOR_MS });
      if (!kept) {
        z.console.log(`The account has more than ${LINK_INDEX_LIMITS.MAX_ENTRIES} links: its index is not kept in Zapier's cache; lookups walk the account in each step.`);
      }
    }
  }
}
