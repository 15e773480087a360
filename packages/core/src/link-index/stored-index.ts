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
 */
import type { LinkIndexSnapshot } from './link-index';

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
}

/** The stored snapshot, or undefined (none, unreadable, or a chunk gone: the index is read anew). */
export async function loadLinkIndex(store: SnapshotStore, key: string): Promise<{ snapshot?: LinkIndexSnapshot; tooLarge: boolean }> {
  const head = (await store.get(key)) as Partial<Head> | null | undefined;
  if (!head || typeof head !== 'object' || typeof head.generation !== 'string' || typeof head.chunks !== 'number') return { tooLarge: false };
  if (head.tooLarge) return { tooLarge: true };
  const entries: string[] = [];
  for (let i = 0; i < head.chunks; i++) {
    const chunk = await store.get(`${key}:${head.generation}:${i}`);
    if (typeof chunk !== 'string') return { tooLarge: false };
    if (chunk !== '') entries.push(...chunk.split('\n'));
  }
  const { generation: _generation, chunks: _chunks, tooLarge: _tooLarge, ...rest } = head as Head;
  return { snapshot: { ...rest, entries }, tooLarge: false };
}

/** Stores the snapshot; false (and a marker, so that later steps do not try again) when it is too large. */
export async function saveLinkIndex(store: SnapshotStore, key: string, snapshot: LinkIndexSnapshot, generation: string): Promise<boolean> {
  const { entries, ...rest } = snapshot;
  if (entries.length > LINK_INDEX_LIMITS.MAX_ENTRIES) {
    await store.set(key, { ...rest, entries: undefined, generation, chunks: 0, tooLarge: true });
    return false;
  }
  const chunks = Math.ceil(entries.length / LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK);
  for (let i = 0; i < chunks; i++) {
    const part = entries.slice(i * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK, (i + 1) * LINK_INDEX_LIMITS.ENTRIES_PER_CHUNK);
    await store.set(`${key}:${generation}:${i}`, part.join('\n'));
  }
  const head: Head = { ...rest, generation, chunks };
  await store.set(key, head);
  return true;
}
