/**
 * A RunCache in memory, for hosts whose runs share a process: an n8n execution's items, the calls an agent
 * makes to one MCP server. Entries end after their time to live, as Zapier's z.cache entries do, so a
 * remembered quota refusal is tried again later on every host alike.
 */
import type { RunCache } from './operation';

export function createMemoryRunCache(now: () => number = Date.now): RunCache {
  const entries = new Map<string, { value: unknown; until: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry && entry.until <= now()) entries.delete(key);
      return entries.get(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, until: ttlSeconds === undefined ? Number.POSITIVE_INFINITY : now() + ttlSeconds * 1000 });
    },
  };
}
