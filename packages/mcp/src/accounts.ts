/**
 * What a server process keeps per account: one core client (its pacing and its link index serve every call)
 * and one run cache (a plan-quota refusal is remembered for the calls after it), on stdio and on HTTP alike,
 * for every session and request. A server started with --per-request-key serves the account of each
 * request's key: the accounts it has seen are kept by a digest of their key, the least recently used one
 * forgotten past a limit.
 */
import { createHash } from 'node:crypto';
import { createMemoryRunCache, type RunCache } from '@shortlink/core/operations';
import type { ShortLinkClient } from '@shortlink/core/portable';

/** Where a call's key came from: the way out of a refused key differs. */
export type KeySource = 'server' | 'header';

export interface Account {
  client: ShortLinkClient;
  runCache: RunCache;
  /** Scrubbed from every result, error and log line of its calls. */
  secrets: readonly string[];
  keySource: KeySource;
  /** Digest of the key: who a session belongs to, without keeping the key beside it. */
  id: string;
}

/** Accounts a --per-request-key server keeps at once. */
export const MAX_ACCOUNTS = 100;

export function keyDigest(apiKey: string): string {
  return createHash('sha256').update(apiKey.trim()).digest('hex');
}

export class Accounts {
  private readonly byDigest = new Map<string, Account>();

  constructor(
    private readonly clientFor: (apiKey: string) => ShortLinkClient,
    private readonly limit = MAX_ACCOUNTS,
  ) {}

  /** The account of this key, made on first use. */
  forKey(apiKey: string, keySource: KeySource): Account {
    const id = keyDigest(apiKey);
    const known = this.byDigest.get(id);
    if (known) {
      // Most recently used last: the first entry is the one to forget.
      this.byDigest.delete(id);
      this.byDigest.set(id, known);
      return known;
    }
    const account: Account = { client: this.clientFor(apiKey), runCache: createMemoryRunCache(), secrets: [apiKey, apiKey.trim()], keySource, id };
    this.byDigest.set(id, account);
    if (this.byDigest.size > this.limit) this.byDigest.delete(this.byDigest.keys().next().value!);
    return account;
  }

  get size(): number {
    return this.byDigest.size;
  }
}
