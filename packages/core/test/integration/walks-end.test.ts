/**
 * Every walk has an end (docs/guarantees.md, "Walks end"): against the sandbox whose cursors lead in a
 * circle (A → B → A, each page with links never seen before, so only the cursors repeat), Return All, the
 * index walk (Find), a picker's text search (also one page per call, as a dropdown scrolls), and both
 * triggers' polls end with "the service's paging leads in a circle" after a few requests — never
 * "run it again", never a "none".
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient, PagingCircleError, type ShortLinkClient } from '@shortlink/core';
import { searchLinksByText } from '@shortlink/core/host';

let sandbox: Sandbox;
let accounts = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(() => sandbox.setQuirks({}));

function account(links = 150): { id: string; client: ShortLinkClient; sent: () => number; key: string } {
  const { accountId, apiKey } = sandbox.createAccount({ name: `walks ${++accounts}`, email: `walks${accounts}@example.org`, plan: 'business' });
  sandbox.seedLinks(accountId, links, { label: 'walk' });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  const start = sandbox.requests.length;
  return { id: accountId, client, key: apiKey, sent: () => sandbox.requests.slice(start).filter((r) => r.path === '/api/v1/links').length };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the walk ended without an error');
}

function expectCircle(error: Error): void {
  expect(error).toBeInstanceOf(PagingCircleError);
  expect(error.message).toMatch(/^The service's paging leads in a circle \(/);
  expect(error.message).not.toMatch(/run it again/i);
}

test('the sandbox quirk: cursors A → B → A with new links on each page', async () => {
  const a = account(5);
  sandbox.setQuirks({ cursorCycle: true });
  const raw = async (cursor?: string) => {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/links?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${a.key}` } });
    return (await response.json()) as { data: Array<{ id: string }>; nextCursor: string };
  };
  const first = await raw();
  const pageA = await raw(first.nextCursor);
  const pageB = await raw(pageA.nextCursor);
  const again = await raw(pageB.nextCursor);
  expect([first.nextCursor, pageA.nextCursor, pageB.nextCursor]).toEqual(['cycle-A', 'cycle-B', 'cycle-A']);
  const ids = [first, pageA, pageB, again].flatMap((page) => page.data.map((link) => link.id));
  expect(new Set(ids).size).toBe(ids.length);
});

test('Return All (readAllLinks) against the circle ends with the circle error after three requests', async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  expectCircle(await failure(() => a.client.readAllLinks()));
  expect(a.sent()).toBe(3);
});

test('iterateLinks ends with the circle error too', async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  expectCircle(
    await failure(async () => {
      for await (const _link of a.client.iterateLinks({ pageSize: 50 })) {
        // read on
      }
    }),
  );
  expect(a.sent()).toBe(3);
});

test('Return All has one budget: it stops at the item limit and says so; without a stop it is complete', async () => {
  const a = account(250);
  const capped = await a.client.readAllLinks({ maxLinks: 120 });
  expect(capped).toMatchObject({ complete: false, pages: 2 });
  expect(capped.links).toHaveLength(120);
  expect(capped.stoppedEarly).toMatch(/the limit of 120 links for reading all links was reached; more links follow/);
  const all = await a.client.readAllLinks();
  expect(all).toMatchObject({ complete: true, pages: 3 });
  expect(new Set(all.links.map((link) => link.id)).size).toBe(250);
  expect(all.stoppedEarly).toBeUndefined();
});

test('Return All has one budget: its time limit counts for the whole walk, and it says it stopped for time', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'walks time', email: 'walks-time@example.org', plan: 'business' });
  sandbox.seedLinks(accountId, 500, { label: 'time' });
  // Every look at the clock is 4 s later: the walk's 30 s are used up after a few pages.
  let clock = Date.now();
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey, now: () => (clock += 4000) });
  const result = await client.readAllLinks({ timeLimitMs: 30_000 });
  expect(result.complete).toBe(false);
  expect(result.links.length).toBeGreaterThan(0);
  expect(result.links.length).toBeLessThan(500);
  expect(result.stoppedEarly).toMatch(/^the time limit of 30 s for reading all links was reached after \d+ links$/);
});

test('page by page with a new client each time (a dropdown scrolling): the page token remembers the circle', async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  let cursor: string | undefined;
  const fresh = () => createClient({ baseUrl: sandbox.baseUrl, apiKey: a.key });
  const error = await failure(async () => {
    for (let i = 0; i < 10; i++) cursor = (await fresh().listLinks(cursor === undefined ? { limit: 10 } : { limit: 10, cursor })).nextCursor ?? undefined;
  });
  expectCircle(error);
  expect(a.sent()).toBe(3); // first page, A, B — whose next (A again) closes the circle
});

test('Find (the index walk) ends with the circle error, not "none" and not "run it again"', async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  const error = await failure(() => a.client.findLinks({ targetUrl: 'https://example.org/nowhere' }));
  expectCircle(error);
  expect(a.sent()).toBeLessThanOrEqual(5);
  // Asked again, the same client does not walk the circle anew for long either.
  expectCircle(await failure(() => a.client.findLinks({ targetUrl: 'https://example.org/nowhere' })));
});

test("a picker's text search ends with the circle error, in one call and across scrolling calls", async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  expectCircle(await failure(() => searchLinksByText((options) => a.client.listLinks(options), 'no such text', { maxPages: 50, enough: 10 })));
  let cursor: string | undefined;
  const scroll = async () => {
    for (let i = 0; i < 10; i++) {
      const fresh = createClient({ baseUrl: sandbox.baseUrl, apiKey: a.key });
      const options: { maxPages: number; enough: number; cursor?: string } = { maxPages: 1, enough: 10 };
      if (cursor !== undefined) options.cursor = cursor;
      ({ nextCursor: cursor } = await searchLinksByText((o) => fresh.listLinks(o), 'no such text', options));
    }
  };
  expectCircle(await failure(scroll));
});

test('the Link Clicks poll ends with the circle error; the New Link poll ends at its mark', async () => {
  const a = account();
  sandbox.setQuirks({ cursorCycle: true });
  expectCircle(await failure(() => a.client.pollLinkClicks(undefined, { mode: 'newClicks', scope: { createdWithinDays: 30 } })));
  sandbox.setQuirks({});
  const first = await a.client.pollNewLinks(undefined, { pageSize: 10 });
  const mark = first.state;
  sandbox.seedLinks(a.id, 40, { label: 'after-mark' });
  sandbox.setQuirks({ cursorCycle: true });
  // The circle's links are older than the mark: the poll stops at the first of them, so it ends at once.
  // (Links the circle skips are invisible to any client: docs/guarantees.md names this limit.)
  const before = a.sent();
  await a.client.pollNewLinks(mark, { pageSize: 10, maxLinks: 1000 });
  expect(a.sent() - before).toBeLessThanOrEqual(3);
});
