/**
 * The new_link polling trigger against the sandbox, across several polls as Zapier runs them: its id
 * dedupe is modelled by ZapierDedupe, its per-Zap state lives in createAppTester's z.cache stand-in.
 * A burst larger than a page (and one larger than a whole poll) must fire every link exactly once.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { NEW_LINK_MAX_PAGES, NEW_LINK_PAGE_SIZE } from '../src/triggers/newLink';
import { newAppTester, pollBundle, run, ZapierDedupe, type AppTester } from './helpers';

type Link = { id: string; createdAt: string };

let sandbox: Sandbox;
let appTester: AppTester;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  appTester = newAppTester(); // a fresh z.cache per test
});

/** Creates links straight through the core (not the app), as users would in the dashboard. */
async function createLinks(count: number, tag: string): Promise<string[]> {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await client.createLink({ targetUrl: `https://example.org/${tag}/${i}` })).id);
  }
  return ids;
}

/** GET /links requests the sandbox saw while `action` ran. */
async function listRequestsDuring<T>(action: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = sandbox.requests.length;
  const result = await action();
  const requests = sandbox.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/api/v1/links').length;
  return { result, requests };
}

function poll(zapId: string | undefined): Promise<Link[]> {
  const bundle = pollBundle(sandbox.baseUrl, sandbox.apiKey, zapId ?? '');
  if (zapId === undefined) delete (bundle.meta as { zap?: unknown }).zap;
  return run<Link[]>(appTester, 'triggers.new_link', bundle);
}

function expectNewestFirst(links: Link[]): void {
  for (let i = 1; i < links.length; i++) {
    expect(Date.parse(links[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(links[i]!.createdAt));
  }
}

it('fires every link of a burst larger than a page once, and a quiet poll costs one request', async () => {
  const dedupe = new ZapierDedupe();
  const first = await poll('zap-burst');
  expect(first.length).toBeGreaterThan(0); // the newest page seeds Zapier's dedupe table
  expect(dedupe.accept(first)).toEqual([]);

  const burst = await createLinks(NEW_LINK_PAGE_SIZE * 2 + 17, 'burst');
  const { result: afterBurst, requests } = await listRequestsDuring(() => poll('zap-burst'));
  expectNewestFirst(afterBurst);
  expect(requests).toBe(3); // 217 new links: three pages down to the mark
  const fired = dedupe.accept(afterBurst).map((link) => link.id);
  expect(fired.sort()).toEqual([...burst].sort());

  const quiet = await listRequestsDuring(() => poll('zap-burst'));
  expect(quiet.requests).toBe(1);
  expect(quiet.result).toEqual([]);

  const late = await createLinks(2, 'late');
  expect(dedupe.accept(await poll('zap-burst')).map((link) => link.id).sort()).toEqual([...late].sort());
});

it('spreads a burst larger than one poll over the next polls without losing or repeating a link', async () => {
  const dedupe = new ZapierDedupe();
  dedupe.accept(await poll('zap-flood'));
  const flood = await createLinks(NEW_LINK_PAGE_SIZE * NEW_LINK_MAX_PAGES + 30, 'flood');

  const fired: string[] = [];
  let polls = 0;
  // Bounded: each poll either emits or advances its resume cursor; a handful of polls always suffices.
  while (fired.length < flood.length && polls < 6) {
    polls++;
    const { result, requests } = await listRequestsDuring(() => poll('zap-flood'));
    expect(requests).toBeLessThanOrEqual(NEW_LINK_MAX_PAGES);
    fired.push(...dedupe.accept(result).map((link) => link.id));
  }
  expect(polls).toBeGreaterThan(1);
  expect(new Set(fired).size).toBe(fired.length);
  expect([...fired].sort()).toEqual([...flood].sort());
  expect(await poll('zap-flood')).toEqual([]);
});

it('keeps one state per Zap, so two Zaps on one connection both see every new link', async () => {
  const zapA = new ZapierDedupe();
  const zapB = new ZapierDedupe();
  zapA.accept(await poll('zap-a'));
  zapB.accept(await poll('zap-b'));
  const first = await createLinks(3, 'shared-1');
  expect(zapA.accept(await poll('zap-a')).map((l) => l.id).sort()).toEqual([...first].sort());
  const second = await createLinks(2, 'shared-2');
  expect(zapB.accept(await poll('zap-b')).map((l) => l.id).sort()).toEqual([...first, ...second].sort());
  expect(zapA.accept(await poll('zap-a')).map((l) => l.id).sort()).toEqual([...second].sort());
});

it('falls back to the newest page without a Zap id, and then keeps no state', async () => {
  const created = await createLinks(1, 'no-zap');
  const { result, requests } = await listRequestsDuring(() => poll(undefined));
  expect(requests).toBe(1);
  expect(result[0]!.id).toBe(created[0]);
  expect(result.length).toBeLessThanOrEqual(NEW_LINK_PAGE_SIZE);
  // createAppTester keeps z.cache in zcacheTestObj (untyped): nothing was stored.
  expect(Object.keys((appTester as unknown as { zcacheTestObj: object }).zcacheTestObj)).toEqual([]);
});

it('starts over from the newest page when the stored state is unreadable', async () => {
  // createAppTester's z.cache stand-in keeps JSON text per key, as Zapier's cache does.
  const cache = (appTester as unknown as { zcacheTestObj: Record<string, string> }).zcacheTestObj;
  cache['new_link:zap:zap-broken'] = JSON.stringify({ version: 99, mark: 'garbage' });
  const { result, requests } = await listRequestsDuring(() => poll('zap-broken'));
  expect(result.length).toBeGreaterThan(0);
  expect(requests).toBe(2); // a fresh mark, then the newest page
  expect(JSON.parse(cache['new_link:zap:zap-broken']!)).toMatchObject({ version: 1 });
});
