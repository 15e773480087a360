/**
 * The account fixtures of the conformance table, each on a fresh sandbox with the same clock, so that every
 * host meets the same state: the same ids (the sandbox counts from 1), the same creation times, the same
 * clicks. Only slugs the service picks at random differ; normalize() names them.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';

export type AccountFixture = 'demo' | 'empty' | 'free' | 'revoked';

export interface Fixture {
  sandbox: Sandbox;
  baseUrl: string;
  apiKey: string;
  /** Link ids by slug, for values such as "@spring-sale". */
  ids: Record<string, string>;
  close(): Promise<void>;
}

/** One clock for the whole run: the sandbox's "now" and the days of "@today". */
export const NOW = Math.floor(Date.now() / 1000) * 1000;

export async function startFixture(account: AccountFixture): Promise<Fixture> {
  const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 }, now: () => NOW });
  let apiKey = sandbox.apiKey;
  let accountId = sandbox.demoAccountId;
  if (account === 'free') ({ apiKey, accountId } = sandbox.createAccount({ name: 'Free Starter', email: 'free@example.com', plan: 'free' }));
  if (account === 'empty') ({ apiKey, accountId } = sandbox.createAccount({ name: 'Empty Business', email: 'empty@example.com', plan: 'business' }));
  if (account === 'revoked') apiKey = 'sk_live_revoked_key_for_the_conformance_table';
  if (account === 'demo') {
    // A link nobody clicked, for the statistics of days without clicks.
    await createClient({ baseUrl: sandbox.baseUrl, apiKey }).createLink({ targetUrl: 'https://example.org/quiet', slug: 'quiet', title: 'Quiet' });
  }
  const ids = Object.fromEntries((account === 'revoked' ? [] : sandbox.links(accountId)).map((link) => [link.slug, link.id]));
  return { sandbox, baseUrl: sandbox.baseUrl, apiKey, ids, close: () => sandbox.close() };
}

function day(offsetDays: number): string {
  return new Date(NOW + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The case's values for this fixture: "@slug" → the link's id, "@today-2" → a day, "<base>" → the sandbox. */
export function resolveValues(values: Record<string, unknown>, fixture: Fixture): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== 'string') resolved[key] = value;
    else if (/^@today(-\d+)?$/.test(value)) resolved[key] = day(-Number(value.split('-')[1] ?? 0));
    else if (value.startsWith('@')) resolved[key] = fixture.ids[value.slice(1)] ?? value;
    else resolved[key] = value.split('<base>').join(fixture.baseUrl);
  }
  return resolved;
}

/** One row of cases.json. */
export interface ConformanceCase {
  name: string;
  operation: string;
  account: AccountFixture;
  timeZone?: string;
  values: Record<string, unknown>;
  expect: { records: Array<Record<string, unknown>> } | { error: string; notFound?: boolean };
}
