/**
 * The conformance table's concurrent cases (issue 34; docs/guarantees.md, "Many callers"): the same operation
 * run by several callers at once, through every host — the core, the built n8n node (its harness) and the
 * Zapier app (createAppTester; Find or Create as Zapier's search-or-create) and the MCP server (two server
 * processes over stdio, the callers spread over them) — must leave the account the same and tell the callers
 * the same. Each caller stands for a process of its own: what a host's process shares (one flight per link,
 * one pacer) is forgotten between their starts, so the callers meet only at the service.
 */
import { forgetProcessShared } from '@shortlink/core/host';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { forgetBundledProcessShared } from '../../packages/n8n-nodes-shortlink/test/harness';
import { serverEnv, startStdio, type McpSession } from '../../packages/mcp/test/harness';
import { runCore } from './support/core-host';
import type { Fixture } from './support/fixtures';
import { runN8n } from './support/n8n-host';
import type { Outcome } from './support/outcome';
import { runZapier, zapierStepFor } from './support/zapier-host';

interface ConcurrentCase {
  name: string;
  operation: 'link.findOrCreate' | 'link.create';
  callers: number;
  values: (run: string) => Record<string, unknown>;
  /** What must hold for the links of the case's target and what the callers were told. */
  expect: { links: number; sameId: boolean; created: number };
}

const CASES: ConcurrentCase[] = [
  {
    name: 'four callers of Find or Create for one campaign URL',
    operation: 'link.findOrCreate',
    callers: 4,
    values: (run) => ({ targetUrl: `https://example.org/concurrent/${run}`, utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'autumn' }),
    expect: { links: 1, sameId: true, created: 1 },
  },
  {
    name: 'three callers of Find or Create with the same slug',
    operation: 'link.findOrCreate',
    callers: 3,
    values: (run) => ({ targetUrl: `https://example.org/concurrent/${run}`, slug: `autumn-${run}` }),
    expect: { links: 1, sameId: true, created: 1 },
  },
  {
    name: 'three callers of a plain Create for one URL: each makes and is told its own',
    operation: 'link.create',
    callers: 3,
    values: (run) => ({ targetUrl: `https://example.org/concurrent/${run}` }),
    expect: { links: 3, sameId: false, created: 3 },
  },
];

type Host = 'core' | 'n8n' | 'zapier';
const HOSTS: Array<[Host, (key: string, values: Record<string, unknown>, fixture: Fixture) => Promise<Outcome>, () => void]> = [
  ['core', (key, values, fixture) => runCore(key, values, fixture, 'UTC'), forgetProcessShared],
  ['n8n', (key, values, fixture) => runN8n(key, values, fixture, 'UTC'), forgetBundledProcessShared],
  ['zapier', (key, values, fixture) => runZapier(zapierStepFor(key, values)!, values, fixture, 'UTC'), forgetProcessShared],
];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});

let runs = 0;
describe.each(HOSTS)('through %s', (host, run, forget) => {
  test.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const label = `${host}-${++runs}`;
    const { accountId, apiKey } = sandbox.createAccount({ name: `Concurrent ${label}`, email: `${label}@example.com`, plan: 'business' });
    sandbox.seedLinks(accountId, 120, { spacingMs: 1_000, endAt: Date.now() - 3_600_000, label });
    const fixture: Fixture = { sandbox, baseUrl: sandbox.baseUrl, apiKey, ids: {}, close: async () => undefined };
    const values = entry.values(label);
    const started: Array<Promise<Outcome>> = [];
    for (let caller = 0; caller < entry.callers; caller++) {
      // A process of its own: nothing of the earlier callers' is shared with this one.
      forget();
      started.push(run(entry.operation, values, fixture));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const outcomes = await Promise.all(started);
    const failed = outcomes.filter((outcome) => 'error' in outcome);
    expect(failed).toEqual([]);
    const records = outcomes.map((outcome) => (outcome as { records: Array<Record<string, unknown>> }).records[0]!);
    const links = sandbox.links(accountId).filter((link) => !link.slug.startsWith(label));
    expect(links).toHaveLength(entry.expect.links);
    const ids = new Set(records.map((record) => String(record.id)));
    expect(ids.size).toBe(entry.expect.sameId ? 1 : entry.callers);
    for (const id of ids) expect(links.map((link) => link.id)).toContain(id);
    const created = entry.operation === 'link.create' ? records.length : records.filter((record) => record.created === true).length;
    expect(created).toBe(entry.expect.created);
  }, 60_000);
});

describe('through MCP (two server processes, the callers taking turns between them)', () => {
  const servers: McpSession[] = [];
  let account: { accountId: string; apiKey: string };
  const TOOLS = { 'link.findOrCreate': 'link_find_or_create', 'link.create': 'link_create' } as const;

  beforeAll(async () => {
    account = sandbox.createAccount({ name: 'Concurrent MCP', email: 'mcp-concurrent@example.com', plan: 'business' });
    sandbox.seedLinks(account.accountId, 120, { spacingMs: 1_000, endAt: Date.now() - 3_600_000, label: 'mcp-seed' });
    for (let i = 0; i < 2; i++) servers.push(await startStdio(serverEnv(sandbox.baseUrl, account.apiKey)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  test.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const label = `mcp-${++runs}`;
    const values = entry.values(label);
    const target = String(values.targetUrl);
    const results = await Promise.all(Array.from({ length: entry.callers }, (_, caller) => servers[caller % 2]!.call(TOOLS[entry.operation], values)));
    expect(results.filter((result) => result.isError)).toEqual([]);
    const records = results.map((result) => (result.structuredContent as { records: Array<Record<string, unknown>> }).records[0]!);
    const links = sandbox.links(account.accountId).filter((link) => link.targetUrl.startsWith(target));
    expect(links).toHaveLength(entry.expect.links);
    const ids = new Set(records.map((record) => String(record.id)));
    expect(ids.size).toBe(entry.expect.sameId ? 1 : entry.callers);
    const created = entry.operation === 'link.create' ? records.length : records.filter((record) => record.created === true).length;
    expect(created).toBe(entry.expect.created);
  }, 60_000);
});
