/**
 * Keeping a link index between invocations in a host's key-value store (Zapier's z.cache, per connection).
 * Zapier publishes no size limit for one z.cache value, and every value travels through its RPC with the
 * invocation, so the index is kept small and split: entries of ~50 bytes (a fingerprint of the target, not
 * the URL; a hit is confirmed by one GET), at most ENTRIES_PER_CHUNK per value (≈ 150 kB), at most
 * MAX_CHUNKS values. An account above MAX_ENTRIES links is not kept: its lookups walk within the step's
 * time and say so when they cannot finish (SearchIncompleteError, not resumable).
 *
 * Chunks are written under a new generation first and the head last, so a reader never mixes two versions;
 * old chunks expire with their TTL. A save rewrites only what changed: a chunk whose text is the one read
 * (and was written less than `reuseForMs` ago, so that it outlives any head that can still name it) stays
 * under its generation, which the head records per chunk; an unchanged index writes nothing. So a Find whose
 * refresh found nothing new writes the head only, and a create in a large account one chunk and the head.
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
  /** Chunk i's generation and write time, when it is not `generation` (kept from an earlier save). */
  chunkGenerations?: string[];
  chunkWrittenAt?: number[];
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
  /** What was read, for saveLinkIndex to keep what did not change. */
  stored?: StoredParts;
}

/** The head and chunks as read: their texts, generations and write times. */
export interface StoredParts {
  head: string;
  chunks: Array<{ text: string; generation: string; writtenAt: number }>;
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
  const generations = Array.from({ length: head.chunks }, (_, i) => chunkGeneration(head as Head, i));
  // The chunks are read together: each read is a round trip to the host's store (Zapier: an RPC).
  const chunks = await Promise.all(generations.map((generation, i) => store.get(`${key}:${generation}:${i}`)));
  const entries: string[] = [];
  for (const chunk of chunks) {
    if (typeof chunk !== 'string') return withOwner({ tooLarge: false });
    if (chunk !== '') entries.push(...chunk.split('\n'));
  }
  const { generation: _generation, chunks: _chunks, chunkGenerations: _g, chunkWrittenAt: _w, tooLarge: _tooLarge, owner: _owner, ...rest } = head as Head;
  const writtenAt = (i: number) => (head as Head).chunkWrittenAt?.[i] ?? 0;
  const stored: StoredParts = {
    head: JSON.stringify(head),
    chunks: chunks.map((text, i) => ({ text: text as string, generation: generations[i]!, writtenAt: writtenAt(i) })),
  };
  return withOwner({ snapshot: { ...rest, entries }, tooLarge: false, stored });
}

function chunkGeneration(head: Head, i: number): string {
  const own = head.chunkGenerations?.[i];
  return typeof own === 'string' && own !== '' ? own : head.generation;
}

export interface SaveOptions {
  owner?: StateOwner;
  /** What loadLinkIndex read: chunks whose text is unchanged are kept, not written again. */
  stored?: StoredParts;
  /** A kept chunk must have been written less than this long ago (the host's TTL minus the index's age bound). */
  reuseForMs?: number;
  now?: () => number;
}

/**
 * Stores the snapshot, writing only what changed since `options.stored` was read; false (and a marker, so
 * that later steps do not try again) when it is too large.
 */
export async function saveLinkIndex(store: SnapshotStore, key: string, snapshot: LinkIndexSnapshot, generation: string, options: SaveOptions = {}): Promise<boolean> {
  const { entries, ...rest } = snapshot;
  const whose = options.owner ? { owner: options.owner } : {};
  if (entries.length > LINK_INDEX_LIMITS.MAX_ENTRIES) {
    await store.set(key, { ...rest, entries: undefined, generation, chunks: 0, tooLarge: true, ...whose });
    return false;
  }
  const now = (options.now ?? Date.now)();
  const chunks = Math.ceil(entries.length / LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK);
  const parts = Array.from({ length: chunks }, (_, i) => {
    const text = entries.slice(i * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK, (i + 1) * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK).join('\n');
    const before = options.stored?.chunks[i];
    const keep = before !== undefined && before.text === text && now - before.writtenAt < (options.reuseForMs ?? 0);
    return keep ? { text, generation: before.generation, writtenAt: before.writtenAt, write: false } : { text, generation, writtenAt: now, write: true };
  });
  const head: Head = { ...rest, generation, chunks, chunkGenerations: parts.map((part) => part.generation), chunkWrittenAt: parts.map((part) => part.writtenAt), ...whose };
  if (options.stored && parts.every((part) => !part.write) && sameHead(options.stored.head, head)) return true;
  // The chunks are written together (a round trip each), the head only once they all are.
  await Promise.all(parts.map((part, i) => (part.write ? store.set(`${key}:${generation}:${i}`, part.text) : undefined)));
  await store.set(key, head);
  return true;
}

/** The head as read equals the new one but for the save's own generation (nothing else changed). */
function sameHead(storedHead: string, head: Head): boolean {
  const { generation: _a, ...stored } = JSON.parse(storedHead) as Head;
  const { generation: _b, ...next } = head;
  return JSON.stringify(stored) === JSON.stringify(next);
}
