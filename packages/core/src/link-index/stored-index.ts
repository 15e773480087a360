/**
 * Keeping a link index between invocations in a host's key-value store (Zapier's z.cache, per connection).
 * Zapier publishes no size limit for one z.cache value, and every value travels through its RPC with the
 * invocation, so the index is kept small and split: entries of ~50 bytes (a fingerprint of the target, not
 * the URL; a hit is confirmed by one GET), at most ENTRIES_PER_CHUNK per value (≈ 150 kB), at most
 * MAX_CHUNKS values. An account above MAX_ENTRIES links is not kept: its lookups walk within the step's
 * time and say so when they cannot finish (SearchIncompleteError, not resumable).
 *
 * Chunks are written under a new generation first and the head last, so a reader never mixes two versions;
 * old chunks expire with their TTL.
 *
 * The index is bound to the account it was read from (docs/guarantees.md, "The stored index"): the head
 * records its owner (base URL, the key's fingerprint, and the /me account id once it was asked). An index
 * read with another key is used only after GET /me names the account recorded with it; any other is
 * dropped (another account's index would answer "none" for this account's links, and Find or Create would
 * create duplicates). The same key costs no request; a new key one GET /me (an index stored before any
 * key change names no account yet, so the first key change reads the account anew).
 */
import type { LinkIndexSnapshot } from './link-index';
import { checkStateOwner, isStateOwner, type CurrentOwner, type StateOwner } from '../polls/state-owner';

export interface SnapshotStore {
  get(key: string): Promise<unknown>;
  /** Stores a JSON value; the host chooses its TTL and scope. */
  set(key: string, value: unknown): Promise<void>;
}

export const LINK_INDEX_LIMITS = {
  ENTRIES_PER_CHUNK: 3_000,
  MAX_CHUNKS: 34,
  /** 34 × 3 000: larger accounts are not kept in the store. */
  MAX_ENTRIES: 102_000,
} as const;

interface Head extends Omit<LinkIndexSnapshot, 'entries'> {
  generation: string;
  chunks: number;
  /** The account had more links than a stored index may hold. */
  tooLarge?: boolean;
  /** Whose index it is. */
  owner?: StateOwner;
}

export interface LoadedLinkIndex {
  snapshot?: LinkIndexSnapshot;
  tooLarge: boolean;
  /** The owner to store it under (undefined when no owner was asked for). */
  owner?: StateOwner;
  /** True when a stored index of another account (or service) was dropped. */
  dropped?: boolean;
}

/** The stored snapshot, or undefined (none, unreadable, or a chunk gone: the index is read anew). */
export async function loadLinkIndex(store: SnapshotStore, key: string, current?: CurrentOwner): Promise<LoadedLinkIndex> {
  const head = (await store.get(key)) as Partial<Head> | null | undefined;
  const bound = async (stored: StateOwner | undefined): Promise<{ owner?: StateOwner; same: boolean }> => {
    if (!current) return { same: true };
    // An index without an owner (or a broken one) is nobody's: dropped, as another account's would be.
    const check = await checkStateOwner(isStateOwner(stored) ? stored : undefined, current);
    return { owner: check.owner, same: check.verdict === 'same' };
  };
  if (!head || typeof head !== 'object' || typeof head.generation !== 'string' || typeof head.chunks !== 'number') {
    // Nothing stored: the new index is bound to this key (no request); GET /me is asked only when a later
    // step comes with another key, and its answer is then recorded too.
    return current ? { tooLarge: false, owner: { baseUrl: current.baseUrl, credential: current.credential } } : { tooLarge: false };
  }
  const { owner, same } = await bound(head.owner);
  const withOwner = <T extends object>(value: T): T & { owner?: StateOwner } => (owner ? { ...value, owner } : value);
  if (!same) return withOwner({ tooLarge: false, dropped: true });
  if (head.tooLarge) return withOwner({ tooLarge: true });
  // The chunks are read together: each read is a round trip to the host's store (Zapier: an RPC).
  const chunks = await Promise.all(Array.from({ length: head.chunks }, (_, i) => store.get(`${key}:${head.generation}:${i}`)));
  const entries: string[] = [];
  for (const chunk of chunks) {
    if (typeof chunk !== 'string') return withOwner({ tooLarge: false });
    if (chunk !== '') entries.push(...chunk.split('\n'));
  }
  const { generation: _generation, chunks: _chunks, tooLarge: _tooLarge, owner: _owner, ...rest } = head as Head;
  return withOwner({ snapshot: { ...rest, entries }, tooLarge: false });
}

/** Stores the snapshot; false (and a marker, so that later steps do not try again) when it is too large. */
export async function saveLinkIndex(store: SnapshotStore, key: string, snapshot: LinkIndexSnapshot, generation: string, owner?: StateOwner): Promise<boolean> {
  const { entries, ...rest } = snapshot;
  const whose = owner ? { owner } : {};
  if (entries.length > LINK_INDEX_LIMITS.MAX_ENTRIES) {
    await store.set(key, { ...rest, entries: undefined, generation, chunks: 0, tooLarge: true, ...whose });
    return false;
  }
  const chunks = Math.ceil(entries.length / LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK);
  // The chunks are written together (a round trip each), the head only once they all are.
  await Promise.all(
    Array.from({ length: chunks }, (_, i) => {
      const part = entries.slice(i * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK, (i + 1) * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK);
      return store.set(`${key}:${generation}:${i}`, part.join('\n'));
    }),
  );
  const head: Head = { ...rest, generation, chunks, ...whose };
  await store.set(key, head);
  return true;
}
