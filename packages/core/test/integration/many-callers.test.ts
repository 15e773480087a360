/**
 * Many callers on one key (docs/guarantees.md, "Many callers"): Find or Create converges across separate
 * clients that share nothing (`shareAcrossClients: false` stands for separate processes; the property test
 * and the e2e use real ones), shares one flight within a process, and a stopped call sends nothing more.
 */
import { CancelledError, createClient, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setQuirks(undefined);
  sandbox.setFaults(undefined);
});

const separate = (): ShortLinkClient => createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, shareAcrossClients: false });
const linksTo = (target: string) => sandbox.links(sandbox.demoAccountId).filter((link) => link.targetUrl === target);

describe('Find or Create across separate clients', () => {
  test.each([0, 600])('four clients that share nothing, started together (list lag %i ms): one link, all told its id, one "created"', async (lag) => {
    sandbox.setQuirks({ listLagMs: lag });
    const target = `https://example.org/many/four-${lag}`;
    const results = await Promise.all([0, 1, 2, 3].map(() => separate().findOrCreateLink({ targetUrl: target })));
    expect(linksTo(target)).toHaveLength(1);
    const [only] = linksTo(target);
    expect(new Set(results.map((r) => r.link.id))).toEqual(new Set([only!.id]));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // Find hands out the same link afterwards.
    expect((await separate().findLinks({ targetUrl: target }))[0]!.id).toBe(only!.id);
  });

  test('the losers delete only the links their own requests made, never a link made by a plain Create', async () => {
    const target = 'https://example.org/many/with-a-plain-create';
    const plain = separate().createLink({ targetUrl: target, title: 'one-off' });
    const focs = [0, 1, 2].map(() => separate().findOrCreateLink({ targetUrl: target }));
    const [made, ...found] = await Promise.all([plain, ...focs]);
    const kept = linksTo(target);
    expect(kept.map((l) => l.id)).toContain((made as { id: string }).id);
    // The Find or Create callers agree on one link; the plain Create's link stays whatever they chose.
    expect(new Set(found.map((r) => (r as { link: { id: string } }).link.id)).size).toBe(1);
    expect(kept.length).toBeLessThanOrEqual(2);
  });
});

describe('within one process', () => {
  test('five concurrent calls for one link on one client share one flight: one POST, one "created"', async () => {
    const client = separate();
    const target = 'https://example.org/many/one-flight';
    const before = sandbox.requests.filter((r) => r.method === 'POST').length;
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => client.findOrCreateLink({ targetUrl: target })));
    expect(sandbox.requests.filter((r) => r.method === 'POST').length - before).toBe(1);
    expect(new Set(results.map((r) => r.link.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  test('clients of one key in one process share the flight too (a warm Zapier container, n8n webhook executions)', async () => {
    const target = 'https://example.org/many/process-flight';
    const make = () => createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
    const results = await Promise.all([0, 1, 2, 3].map(() => make().findOrCreateLink({ targetUrl: target })));
    expect(linksTo(target)).toHaveLength(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  test('five concurrent lookups of different links on one client never take each other for a circle', async () => {
    const client = separate();
    sandbox.seedLinks(sandbox.demoAccountId, 450, { label: 'circle-check' });
    const targets = [0, 1, 2, 3, 4].map((i) => `https://example.org/many/distinct-${i}`);
    const results = await Promise.all(targets.map((targetUrl) => client.findOrCreateLink({ targetUrl })));
    expect(results.every((r) => r.created)).toBe(true);
    for (const target of targets) expect(linksTo(target)).toHaveLength(1);
  });
});

describe('stop means stop', () => {
  test('cancelled during the search, before any POST: no create is ever sent', async () => {
    sandbox.seedLinks(sandbox.demoAccountId, 2_000, { label: 'slow-walk' });
    sandbox.setFaults({ latencyMs: 20 });
    const controller = new AbortController();
    const client = separate().within({ signal: controller.signal });
    const before = sandbox.requests.length;
    const call = client.findOrCreateLink({ targetUrl: 'https://example.org/many/cancelled' }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(CancelledError);
    // Nothing more goes out afterwards, a write least of all.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = sandbox.requests.slice(before);
    expect(after.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(linksTo('https://example.org/many/cancelled')).toHaveLength(0);
  });

  test('a deadline over the whole call ends it however many requests it needs', async () => {
    sandbox.setFaults({ latencyMs: 20 });
    const started = Date.now();
    const client = separate().within({ deadlineAt: Date.now() + 300, limitMs: 300 });
    const error = await client.readAllLinks().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(String((error as { message?: string }).message ?? JSON.stringify(error))).toMatch(/time limit|0\.3 s/);
  });

  test('cancelled while the create is on its way (the write lands late): the outcome is "unknown", and nothing is sent after', async () => {
    sandbox.setFaults({ createFaults: ['lateWrite'], hangMs: 400 });
    const controller = new AbortController();
    const client = separate().within({ signal: controller.signal });
    const target = 'https://example.org/many/cancelled-in-flight';
    const call = client.createLink({ targetUrl: target }).catch((e: unknown) => e);
    const before = sandbox.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    const error = (await call) as CancelledError;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/The outcome is unknown: the link may have been created\. Look it up by its target URL/);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sandbox.requests.slice(before).filter((r) => r.method !== 'GET' && r.receivedAt > Date.now() - 550)).toEqual([]);
    expect(linksTo(target)).toHaveLength(1);
  });
});
