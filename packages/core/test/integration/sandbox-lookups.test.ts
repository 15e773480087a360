/**
 * Lookups on large accounts (seeded straight into the sandbox's store), the target among the oldest links:
 * find, find-or-create and by short URL answer "none" only after the whole account was read, walk it once
 * per client (run), never create a second link, and say so when they cannot finish.
 */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { buildCampaignUrl, createClient, SearchIncompleteError } from '@shortlink/core';
import { LinkIndex } from '../../src/link-index/link-index';
import type { ShortLinkClient } from '@shortlink/core';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox?.close();
});

function account(links: number, label: string): { accountId: string; apiKey: string; client: (extra?: Partial<Parameters<typeof createClient>[0]>) => ShortLinkClient } {
  const made = sandbox.createAccount({ name: label, email: `${label}@example.org`, plan: 'business' });
  sandbox.seedLinks(made.accountId, links, { label, endAt: Date.now() - 60_000 });
  return { ...made, client: (extra = {}) => createClient({ baseUrl: sandbox.baseUrl, apiKey: made.apiKey, ...extra }) };
}

/** Requests of the sandbox from `from` on: list pages, creates, everything. */
function counted(from: number): { lists: number; posts: number; all: number } {
  const since = sandbox.requests.slice(from).filter((r) => r.path.startsWith('/api/v1/'));
  return {
    lists: since.filter((r) => r.method === 'GET' && r.path === '/api/v1/links').length,
    posts: since.filter((r) => r.method === 'POST').length,
    all: since.length,
  };
}

describe('a 2 500-link account, the target among the oldest (beyond the 2 000 the old scan reached)', () => {
  const acct = () => account(2_500, 'a2500');
  test('find, by short URL and find-or-create reach the oldest link; the account is walked once per client', async () => {
    const { accountId, client: make } = acct();
    const oldest = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id))[0]!;
    const client = make();
    const start = sandbox.requests.length;

    expect((await client.findLinks({ targetUrl: oldest.targetUrl })).map((l) => l.id)).toEqual([oldest.id]);
    // 25 pages of 100; the mark of the new-links algorithm reuses the first one.
    expect(counted(start)).toEqual({ lists: 25, posts: 0, all: 25 });

    expect((await client.findLinkByShortUrl(oldest.shortUrl))?.id).toBe(oldest.id);
    expect(await client.findOrCreateLink({ targetUrl: oldest.targetUrl })).toMatchObject({ created: false, link: { id: oldest.id } });
    const second = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id))[1]!;
    expect((await client.findLinks({ slug: second.slug, domain: null })).map((l) => l.id)).toEqual([second.id]);
    // Everything after the first lookup came from memory.
    expect(counted(start).all).toBe(25);
    expect(sandbox.links(accountId)).toHaveLength(2_500);
  });

  test('"none" comes after the last page, and then the run\'s own create is found without a request', async () => {
    const { accountId, client: make } = acct();
    const client = make();
    const start = sandbox.requests.length;
    expect(await client.findLinks({ targetUrl: 'https://example.org/not-there' })).toEqual([]);
    expect(counted(start).lists).toBe(25);
    const first = await client.findOrCreateLink({ targetUrl: 'https://example.org/not-there', slug: 'fresh-one' });
    expect(first.created).toBe(true);
    const again = await client.findOrCreateLink({ targetUrl: 'https://example.org/not-there', slug: 'fresh-one' });
    expect(again).toMatchObject({ created: false, link: { id: first.link.id } });
    expect((await client.findLinkByShortUrl(first.link.shortUrl))?.id).toBe(first.link.id);
    expect(counted(start)).toEqual({ lists: 25, posts: 1, all: 26 });
    expect(sandbox.links(accountId)).toHaveLength(2_501);
  });
});

describe('a 10 000-link account', () => {
  test('find-or-create over 300 rows (200 existing among the oldest, 100 new) twice: 0 duplicates, one walk per run', async () => {
    const { accountId, client: make } = account(10_000, 'a10k');
    const oldest = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id)).slice(0, 200);
    const rows = [...oldest.map((l) => l.targetUrl), ...Array.from({ length: 100 }, (_, i) => `https://example.org/new/${i}?b=2&a=1`)];

    const start = sandbox.requests.length;
    const run1 = make();
    const first = [];
    for (const targetUrl of rows) first.push(await run1.findOrCreateLink({ targetUrl }));
    expect(first.filter((r) => r.created)).toHaveLength(100);
    expect(first.slice(0, 200).map((r) => r.link.id)).toEqual(oldest.map((l) => l.id));
    // The walk (100 pages), and per new link its create and one look for twins (docs/guarantees.md, "Many callers").
    expect(counted(start)).toEqual({ lists: 200, posts: 100, all: 300 });

    const rerun = sandbox.requests.length;
    const run2 = make();
    // The same rows with the parameters in another order and the host in capitals: the same links.
    const second = [];
    for (const targetUrl of rows) second.push(await run2.findOrCreateLink({ targetUrl: targetUrl.replace('?b=2&a=1', '?a=1&b=2').replace('example.org', 'EXAMPLE.org:443') }));
    expect(second.filter((r) => r.created)).toHaveLength(0);
    expect(second.map((r) => r.link.id)).toEqual(first.map((r) => r.link.id));
    expect(counted(rerun)).toEqual({ lists: 101, posts: 0, all: 101 });
    expect(sandbox.links(accountId)).toHaveLength(10_100);
  });

  test('a lookup that cannot finish in its time says so: no "none", no create; the next one goes on', async () => {
    const { accountId, client: make } = account(10_000, 'slow10k');
    const oldest = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id))[0]!;
    sandbox.setFaults({ latencyMs: 15 });
    try {
      const client = make({ callTimeoutMs: 800 });
      const start = sandbox.requests.length;
      const error = await client.findOrCreateLink({ targetUrl: 'https://example.org/nowhere' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SearchIncompleteError);
      expect((error as Error).message).toMatch(/could not finish: [\d,]+ of the account's links were read within the time limit of 0.8 s/);
      expect((error as Error).message).toMatch(/Nothing was created/);
      expect(counted(start).posts).toBe(0);
      // Later calls of the same run go on where it stopped until the whole account was read.
      let answer;
      for (let attempt = 0; attempt < 30 && answer === undefined; attempt++) {
        answer = await client.findOrCreateLink({ targetUrl: oldest.targetUrl }).catch((e: unknown) => {
          if (e instanceof SearchIncompleteError) return undefined;
          throw e;
        });
      }
      expect(answer).toMatchObject({ created: false, link: { id: oldest.id } });
      expect(counted(start).lists).toBeLessThanOrEqual(100 + 30);
    } finally {
      sandbox.setFaults(undefined);
    }
  });
});

describe('what counts as the same link', () => {
  test('the UTM-tagged target of the step; paused and blocked links are not reused unless asked', async () => {
    const { accountId, client: make } = account(300, 'same');
    const tagged = buildCampaignUrl('https://example.org/spring', { source: 'news', medium: 'email' });
    const setup = make();
    const paused = await setup.createLink({ targetUrl: tagged });
    await setup.updateLink(paused.id, { active: false });
    const blockedOne = await setup.createLink({ targetUrl: 'https://example.org/blocked' });
    sandbox.setBlocked(blockedOne.id, true);
    sandbox.seedLinks(accountId, 300, { label: 'newer' });

    const run = make();
    // Written by hand the other way round: still the same target; but the only such link is paused.
    const found = await run.findOrCreateLink({ targetUrl: 'https://example.org/spring?utm_medium=email&utm_source=news' });
    expect(found.created).toBe(true);
    expect(found.link.id).not.toBe(paused.id);
    // The run's new link is the answer from now on.
    expect((await run.findOrCreateLink({ targetUrl: tagged })).link.id).toBe(found.link.id);
    expect((await run.findOrCreateLink({ targetUrl: 'https://example.org/blocked' })).created).toBe(true);
    // Asked to reuse inactive links, a fresh run returns the newest same link whatever its state.
    const reuse = make();
    expect(await reuse.findOrCreateLink({ targetUrl: 'https://example.org/blocked' }, { reuseInactive: true })).toMatchObject({ created: false });
    // Find itself lists every same link, paused or not.
    expect((await reuse.findLinks({ targetUrl: tagged })).map((l) => l.id).sort()).toEqual([paused.id, found.link.id].sort());
  });

  test('a slug whose link is the same target but paused: explained, not a bare 409', async () => {
    const { client: make } = account(150, 'slugheld');
    const setup = make();
    const held = await setup.createLink({ targetUrl: 'https://example.org/held', slug: 'held-slug' });
    await setup.updateLink(held.id, { active: false });
    const error = await make().findOrCreateLink({ targetUrl: 'https://example.org/held', slug: 'held-slug' }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/already points to this target URL, but it is paused/);
  });

  test('links created elsewhere during a run are found once the index refreshes (new-links algorithm)', async () => {
    const { client: make } = account(500, 'refresh');
    const run = make({ linkIndex: { refreshAfterMs: 0 } });
    expect(await run.findLinks({ targetUrl: 'https://example.org/made-elsewhere' })).toEqual([]);
    const elsewhere = await make().createLink({ targetUrl: 'https://example.org/made-elsewhere' });
    const start = sandbox.requests.length;
    expect(await run.findOrCreateLink({ targetUrl: 'https://example.org/made-elsewhere' })).toMatchObject({ created: false, link: { id: elsewhere.id } });
    expect(counted(start)).toEqual({ lists: 1, posts: 0, all: 1 });
  });

  test('a stored snapshot answers the next invocation: a hit is confirmed by one GET, a deleted link is not handed out', async () => {
    const { accountId, client: make } = account(2_500, 'snap');
    const sorted = sandbox.links(accountId).sort((a, b) => Number(a.id) - Number(b.id));
    const first = make({ linkIndex: { resumable: 'stored', refreshAfterMs: 0 } });
    await first.findLinks({ targetUrl: 'https://example.org/none' });
    const snapshot = JSON.parse(JSON.stringify(first.linkIndexSnapshot()));
    expect(LinkIndex.fromSnapshot(snapshot, Date.now(), 60_000)?.size).toBe(2_500);
    await make().deleteLink(sorted[1]!.id);

    const start = sandbox.requests.length;
    const next = make({ linkIndex: { snapshot, resumable: 'stored', refreshAfterMs: 0 } });
    expect((await next.findOrCreateLink({ targetUrl: sorted[0]!.targetUrl })).link.id).toBe(sorted[0]!.id);
    expect(counted(start)).toEqual({ lists: 0, posts: 0, all: 1 });
    // The deleted one: its GET says 404, the refresh finds nothing new, so it is created anew.
    const gone = await next.findOrCreateLink({ targetUrl: sorted[1]!.targetUrl });
    expect(gone.created).toBe(true);
    // A snapshot older than its age bound is not used: the account is read anew.
    const old = make({ linkIndex: { snapshot, maxAgeMs: 1 } });
    const before = sandbox.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await old.findLinks({ targetUrl: sorted[2]!.targetUrl });
    expect(counted(before).lists).toBeGreaterThanOrEqual(1);
  });
});
