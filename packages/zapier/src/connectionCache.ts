/**
 * What the app keeps in z.cache per connection (the link index, the pacing state, the poll states, the
 * run cache) is reached through here: the cache with its scope argument, and the service's address as the
 * keys name it.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { normalizeBaseUrl } from '@shortlink/core/host';

/** z.cache's scope argument is in the runtime but missing from the typings. */
export type ScopedCache = {
  get(key: string, scope?: string[]): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number, scope?: string[]): Promise<unknown>;
};

/** The connection's z.cache with its scope argument typed (undefined where a test's z has none). */
export function scopedCache(z: ZObject): ScopedCache | undefined {
  return z.cache as unknown as ScopedCache | undefined;
}

/** The connection's base URL as stored keys name it; a bad one as typed (the client names it itself). */
export function serviceAddressOf(bundle: Bundle): string {
  const base = String(bundle.authData?.baseUrl ?? '');
  try {
    return normalizeBaseUrl(base);
  } catch {
    return base;
  }
}
