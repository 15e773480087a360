/**
 * The n8n package as the benchmarks drive it: the package's own test host (packages/n8n-nodes-shortlink/
 * test/harness.ts: a hand-built IExecuteFunctions / IPollFunctions over the BUILT dist), loaded outside jest.
 * The harness loads dist through `jest.requireActual`; outside jest that is a plain require relative to the
 * harness file, so a minimal `jest` global provides exactly that and nothing else.
 * Loaded by path with a local interface, so the root type-check does not pull in the n8n sources.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

const HARNESS = join(__dirname, '..', '..', 'packages', 'n8n-nodes-shortlink', 'test', 'harness.ts');

export interface N8nCredentials {
  apiKey: string;
  baseUrl: string;
}

export interface N8nItem {
  json: Record<string, unknown>;
}

export interface N8nHarness {
  runNode(options: {
    credentials: N8nCredentials;
    parameters: Record<string, unknown> | ((itemIndex: number) => Record<string, unknown>);
    items?: Record<string, unknown>[];
    continueOnFail?: boolean;
  }): Promise<N8nItem[]>;
  triggerHost(
    credentials: N8nCredentials,
    parameters?: Record<string, unknown>,
  ): { poll(mode?: 'trigger' | 'manual'): Promise<Record<string, unknown>[] | null> };
}

let loaded: N8nHarness | undefined;

export function loadN8nHarness(): N8nHarness {
  if (loaded) return loaded;
  const globals = globalThis as { jest?: unknown };
  if (globals.jest === undefined) globals.jest = { requireActual: createRequire(HARNESS) };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded = require(HARNESS) as N8nHarness;
  return loaded;
}
