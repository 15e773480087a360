/**
 * The connection's stored link index (src/linkIndex.ts) against the sandbox: bound to the account it was
 * read from, and never the ground of a "none" (on which Find or Create creates) when its reading of the
 * account is older than NONE_MAX_AGE_MS. createAppTester keeps z.cache in zcacheTestObj (one connection:
 * its scope is not modelled, so a changed key is a re-authenticated connection).
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';
import { NONE_MAX_AGE_MS } from '../src/linkIndex';
import { authData, newAppTester, run, type AppTester } from './helpers';

type Link = { id: string; targetUrl: string };

let sandbox: Sandbox;
let appTester: AppTester;
let accounts = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  appTester = newAppTester();
});

function account(links = 0): { id: string; key: string; auth: { baseUrl: string; apiKey: string } } {
  const { accountId, apiKey } = sandbox.createAccount({ name: `index ${++accounts}`, email: `index${accounts}@example.org`, plan: 'business' });
  if (links > 0) sandbox.seedLinks(accountId, links, { label: `idx${accounts}` });
  return { id: accountId, key: apiKey, auth: authData(sandbox.baseUrl, apiKey) };
}

const cache = () => (appTester as unknown as { zcacheTestObj: Record<string, string> }).zcacheTestObj;
const listRequests = (from: number) => sandbox.requests.slice(from).filter((r) => r.path === '/api/v1/links').length;

/** Moves the stored index's reading of the account back in time, as if it had been read `ms` ago. */
function ageStoredIndex(ms: number): void {
  const heads = Object.keys(cache()).filter((key) => /^link-index:v2:[^:]+$/.test(key));
  expect(heads).toHaveLength(1);
  const head = JSON.parse(cache()[heads[0]!]!) as { builtAt: number; refreshedAt: number };
  cache()[heads[0]!] = JSON.stringify({ ...head, builtAt: head.builtAt - ms, refreshedAt: head.refreshedAt - ms });
}

it("a key of another account on the same connection never uses the first account's index", async () => {
  const a = account(30);
  const b = account(30);
  const target = 'https://example.org/both-accounts';
  await createClient({ baseUrl: sandbox.baseUrl, apiKey: a.key }).createLink({ targetUrl: target });
  const bLink = await createClient({ baseUrl: sandbox.baseUrl, apiKey: b.key }).createLink({ targetUrl: target });

  expect(await run<Link[]>(appTester, 'searches.find_link', { authData: a.auth, inputData: { targetUrl: 'https://example.org/nowhere' } })).toEqual([]);
  const before = sandbox.requests.length;
  // Re-authenticated with B's key: A's index (complete, holding A's link to the target) is dropped after
  // one GET /me, and B's account is read — its own link is found, so Find or Create creates nothing.
  const found = await run<Link[]>(appTester, 'searches.find_link', { authData: b.auth, inputData: { targetUrl: target } });
  expect(found.map((link) => link.id)).toEqual([bLink.id]);
  expect(sandbox.requests.slice(before).filter((r) => r.path === '/api/v1/me')).toHaveLength(1);
});

it('a target changed in the dashboard: a "none" from an index older than NONE_MAX_AGE_MS is not given; the account is read anew', async () => {
  const c = account(950);
  const dashboard = createClient({ baseUrl: sandbox.baseUrl, apiKey: c.key });
  const [victim] = (await dashboard.listLinks({ limit: 100 })).links.slice(50, 51);

  expect(await run<Link[]>(appTester, 'searches.find_link', { authData: c.auth, inputData: { targetUrl: 'https://example.org/nowhere' } })).toEqual([]);
  const changedTarget = 'https://example.org/changed-in-the-dashboard';
  await dashboard.updateLink(victim!.id, { targetUrl: changedTarget });

  // Within NONE_MAX_AGE_MS the stored index still speaks for the account: the limit the help text states.
  let from = sandbox.requests.length;
  expect(await run<Link[]>(appTester, 'searches.find_link', { authData: c.auth, inputData: { targetUrl: changedTarget } })).toEqual([]);
  const freshCost = listRequests(from);

  // Older than that, a "none" needs a new reading of the account: the changed link is found.
  ageStoredIndex(NONE_MAX_AGE_MS + 1000);
  from = sandbox.requests.length;
  const found = await run<Link[]>(appTester, 'searches.find_link', { authData: c.auth, inputData: { targetUrl: changedTarget } });
  expect(found.map((link) => link.id)).toEqual([victim!.id]);
  const staleCost = listRequests(from);
  // The cost, measured: a fresh "none" is one request (links created since); a stale one a walk of the
  // account (10 pages of 100 for 951 links) and that request.
  expect(freshCost).toBe(1);
  expect(staleCost).toBe(11);
  console.log(`stored index, 951 links: a fresh "none" costs ${freshCost} list request(s); one after ${NONE_MAX_AGE_MS / 60_000} min costs ${staleCost}`);
});

it('a step that looks nothing up (Create Link) reads none of the stored index and stores none; the next Find still finds its link', async () => {
  const d = account(120);
  expect(await run<Link[]>(appTester, 'searches.find_link', { authData: d.auth, inputData: { targetUrl: 'https://example.org/nowhere' } })).toEqual([]);
  const stored = { ...cache() };
  expect(Object.keys(stored).filter((key) => key.startsWith('link-index:v2:')).length).toBeGreaterThanOrEqual(2); // head and a chunk

  // z.cache's stand-in answers a read with `key in zcacheTestObj`: count the index's keys asked for.
  const asked: string[] = [];
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = new Proxy(cache(), {
    has: (target, key) => {
      if (typeof key === 'string') asked.push(key);
      return key in target;
    },
  });
  const created = await run<Link>(appTester, 'creates.create_link', { authData: d.auth, inputData: { targetUrl: 'https://example.org/made-in-a-zap' } });
  expect(asked.filter((key) => key.startsWith('link-index:'))).toEqual([]);
  for (const [key, value] of Object.entries(stored)) if (key.startsWith('link-index:')) expect(cache()[key]).toBe(value);

  // The index learns of the new link at the next lookup's refresh (links created since it was read).
  const found = await run<Link[]>(appTester, 'searches.find_link', { authData: d.auth, inputData: { targetUrl: 'https://example.org/made-in-a-zap' } });
  expect(found.map((link) => link.id)).toEqual([created.id]);
  expect(asked.filter((key) => key.startsWith('link-index:')).length).toBeGreaterThanOrEqual(2);
});

it('an index of more than one chunk is stored whole and read back whole: the next Find walks nothing', async () => {
  const e = account(3_150);
  expect(await run<Link[]>(appTester, 'searches.find_link', { authData: e.auth, inputData: { targetUrl: 'https://example.org/nowhere' } })).toEqual([]);
  const chunks = Object.keys(cache()).filter((key) => /^link-index:v2:[^:]+:[^:]+:\d+$/.test(key));
  expect(chunks.length).toBeGreaterThanOrEqual(2);

  const dashboard = createClient({ baseUrl: sandbox.baseUrl, apiKey: e.key });
  const someLink = (await dashboard.listLinks({ limit: 100 })).links[0]!; // any link the walk read
  const from = sandbox.requests.length;
  const found = await run<Link[]>(appTester, 'searches.find_link', { authData: e.auth, inputData: { targetUrl: someLink.targetUrl } });
  expect(found.map((link) => link.id)).toEqual([someLink.id]);
  expect(listRequests(from)).toBeLessThanOrEqual(1); // the refresh's one new-links page at most, no walk
});

it('a save writes only what changed: nothing new, the head alone; a link created since, its chunk and the head', async () => {
  const f = account(3_100); // two chunks: 3 000 and 100 entries
  const writes: string[] = [];
  const watchWrites = () => {
    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = new Proxy(cache(), {
      set: (target: Record<string, string>, key, value: string) => {
        if (typeof key === 'string' && key.startsWith('link-index:')) writes.push(/:\d+$/.test(key) ? `chunk ${key.split(':').pop()}` : 'head');
        target[key as string] = value;
        return true;
      },
    });
  };
  const find = (targetUrl: string) => run<Link[]>(appTester, 'searches.find_link', { authData: f.auth, inputData: { targetUrl } });
  expect(await find('https://example.org/nowhere')).toEqual([]);
  watchWrites();

  expect(await find('https://example.org/still-nowhere')).toEqual([]); // the refresh finds nothing new
  expect(writes).toEqual(['head']);

  writes.length = 0;
  await createClient({ baseUrl: sandbox.baseUrl, apiKey: f.key }).createLink({ targetUrl: 'https://example.org/made-elsewhere' });
  const found = await find('https://example.org/made-elsewhere'); // the refresh adds it to the last chunk
  expect(found).toHaveLength(1);
  expect(writes.sort()).toEqual(['chunk 1', 'head']);

  // What was kept reads back whole: the next lookup walks nothing and still finds a link of the first chunk;
  // the hit, read again by its GET, keeps its place in the index, so its chunk is not written again.
  const from = sandbox.requests.length;
  const dashboard = createClient({ baseUrl: sandbox.baseUrl, apiKey: f.key });
  const inFirstChunk = (await dashboard.listLinks({ limit: 100 })).links.at(-1)!;
  writes.length = 0;
  expect((await find(inFirstChunk.targetUrl)).map((link) => link.id)).toEqual([inFirstChunk.id]);
  expect(listRequests(from)).toBeLessThanOrEqual(2); // the dashboard's page and at most the refresh's one
  expect(writes).not.toContain('chunk 0');
});
