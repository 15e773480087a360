/**
 * Walks through a live account (issue 34; docs/guarantees.md, "Every walk through the list has an end"):
 * while other callers create and delete links, Return All, page-by-page iteration, the link index's walk
 * and a picker's text search never end with a "circle" error, never skip a link that existed before the
 * walk began and was not deleted during it, and never hand out one link twice — newest first and oldest
 * first, with and without a lagging list. The sandbox pages by keyset cursors, as the document's cursor
 * paging suggests; each page of a walk is slowed so that the writes land between its pages.
 */
import fc from 'fast-check';
import { createAxiosTransport, createClient, searchLinksByText, type Link, type Transport } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});

type Walk = 'readAll' | 'iterate' | 'index' | 'picker';
interface Scenario {
  walk: Walk;
  order: 'newest first' | 'oldest first';
  lagMs: number;
  creates: number;
  deletes: number;
}

/** Runs the walk and returns every link it handed out, in order. */
async function walkAll(walk: Walk, baseUrl: string, apiKey: string, marker: string): Promise<Link[]> {
  const axios = createAxiosTransport({ apiKey });
  // Every page of the walk takes a while, so the writer's creates and deletes land between the pages.
  const slowPages: Transport = async (request) => {
    if (request.method === 'GET' && request.path === '/links') await new Promise((resolve) => setTimeout(resolve, 15));
    return axios(request);
  };
  const client = createClient({ baseUrl, apiKey, transport: slowPages, shareAcrossClients: false });
  if (walk === 'readAll') return (await client.readAllLinks({ pageSize: 20 })).links;
  if (walk === 'iterate') {
    const links: Link[] = [];
    for await (const link of client.iterateLinks({ pageSize: 20 })) links.push(link);
    return links;
  }
  if (walk === 'picker') {
    // Every seeded link's title holds the marker: the search is a walk of the whole account.
    const found = await searchLinksByText((options) => client.listLinks(options), marker, { maxPages: 1_000, enough: 100_000 });
    return found.links;
  }
  // The link index walks the whole account before it can answer "none".
  const none = await client.findLinks({ targetUrl: `https://example.org/${marker}/nowhere` });
  expect(none).toEqual([]);
  return [];
}

let run = 0;
test('walks of a live account: no circle, no skipped link, no link twice (fast-check, 16 runs, seed 3402)', async () => {
  const tally: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        walk: fc.constantFrom<Walk>('readAll', 'iterate', 'index', 'picker'),
        order: fc.constantFrom<'newest first' | 'oldest first'>('newest first', 'oldest first'),
        lagMs: fc.constantFrom(0, 0, 500),
        creates: fc.integer({ min: 20, max: 120 }),
        deletes: fc.integer({ min: 10, max: 80 }),
      }),
      async (scenario: Scenario) => {
        run++;
        const marker = `walk${run}`;
        const { accountId, apiKey } = sandbox.createAccount({ name: `Walk ${run}`, email: `walk${run}@example.com`, plan: 'business' });
        const before = sandbox.seedLinks(accountId, 600, { spacingMs: 1_000, endAt: Date.now() - 60_000, label: marker });
        sandbox.setQuirks({ listOrder: scenario.order, listLagMs: scenario.lagMs });
        const writer = createClient({ baseUrl: sandbox.baseUrl, apiKey, shareAcrossClients: false });
        const doomed = fc.sample(fc.shuffledSubarray(before, { minLength: scenario.deletes, maxLength: scenario.deletes }), { seed: run, numRuns: 1 })[0]!;
        const deleted = new Set(doomed.map((link) => link.id));
        // The walk and the writes at the same time.
        const [walked] = await Promise.all([
          walkAll(scenario.walk, sandbox.baseUrl, apiKey, marker),
          (async () => {
            for (let i = 0; i < Math.max(scenario.creates, scenario.deletes); i++) {
              if (i < scenario.creates) await writer.createLink({ targetUrl: `https://example.org/${marker}/new/${i}`, title: `${marker} new ${i}` });
              if (i < doomed.length) await writer.deleteLink(doomed[i]!.id);
            }
          })(),
        ]);
        sandbox.setQuirks(undefined);
        tally[scenario.walk] = (tally[scenario.walk] ?? 0) + 1;
        if (scenario.walk === 'index') return;
        const ids = walked.map((link) => String(link.id));
        // Never one link twice.
        expect(new Set(ids).size).toBe(ids.length);
        // Never a link skipped that existed before the walk and was not deleted during it.
        const seen = new Set(ids);
        const missing = before.filter((link) => !deleted.has(link.id) && !seen.has(link.id));
        expect(missing.map((link) => link.id)).toEqual([]);
      },
    ),
    { numRuns: 16, seed: 3402, endOnFailure: true },
  );
  process.stdout.write(`live walks (16 runs, seed 3402): ${JSON.stringify(tally)}\n`);
}, 300_000);
