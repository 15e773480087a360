/**
 * The new_link polling trigger against the sandbox, across several polls as Zapier runs them: its id
 * dedupe is modelled by ZapierDedupe, its per-Zap state lives in createAppTester's z.cache stand-in.
 * Every poll hands Zapier at most 100 links; a larger burst arrives over the next polls, oldest first,
 * every link exactly once.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { MAX_NEW_ITEMS_PER_POLL as NEW_LINK_MAX_ITEMS } from '../src/triggers/pollState';
import { newAppTester, pollBundle, run, ZapierDedupe, type AppTester } from './helpers';

type Link = { id: string; createdAt: string };

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
  appTester = newAppTester(); // a fresh z.cache per test
});

/** A fresh account with a few links; links made later go through the core (as users would in the dashboard). */
function account(existing = 3) {
  const { accountId, apiKey } = sandbox.createAccount({ name: `Zap ${++accounts}`, email: `zap${accounts}@example.com`, plan: 'business' });
  if (existing > 0) sandbox.seedLinks(accountId, existing, { label: `old${accounts}`, endAt: Date.now() - 60_000 });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  return {
    accountId,
    apiKey,
    async create(count: number, tag: string): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await client.createLink({ targetUrl: `https://example.org/${tag}/${i}` })).id);
      return ids;
    },
  };
}

/** GET /links requests the sandbox saw while `action` ran. */
async function listRequestsDuring<T>(action: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = sandbox.requests.length;
  const result = await action();
  const requests = sandbox.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/api/v1/links').length;
  return { result, requests };
}

function poll(apiKey: string, zapId: string | undefined): Promise<Link[]> {
  const bundle = pollBundle(sandbox.baseUrl, apiKey, zapId ?? '');
  if (zapId === undefined) delete (bundle.meta as { zap?: unknown }).zap;
  return run<Link[]>(appTester, 'triggers.new_link', bundle);
}

function expectNewestFirst(links: Link[]): void {
  for (let i = 1; i < links.length; i++) {
    expect(Date.parse(links[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(links[i]!.createdAt));
  }
}

/** Polls until `expected` links fired (at most `maxPolls`); every poll at most 100 items, newest first. */
async function drain(apiKey: string, zapId: string, dedupe: ZapierDedupe, expected: number, maxPolls = 40) {
  const batches: string[][] = [];
  let requests = 0;
  while (batches.flat().length < expected && batches.length < maxPolls) {
    const { result, requests: sent } = await listRequestsDuring(() => poll(apiKey, zapId));
    requests += sent;
    expect(result.length).toBeLessThanOrEqual(NEW_LINK_MAX_ITEMS);
    expectNewestFirst(result);
    // Zapier fires the new ones; within a poll it gets them newest first, so a batch is read oldest first.
    batches.push(dedupe.accept(result).map((link) => link.id).reverse());
  }
  return { batches, requests };
}

it('a burst of 217 arrives in polls of at most 100, oldest first, each link once; a quiet poll is one request', async () => {
  const { apiKey, create } = account();
  const dedupe = new ZapierDedupe();
  const first = await poll(apiKey, 'zap-burst');
  expect(first.length).toBeGreaterThan(0); // the newest page seeds Zapier's dedupe table
  expect(dedupe.accept(first)).toEqual([]);

  const burst = await create(217, 'burst');
  const { batches, requests } = await drain(apiKey, 'zap-burst', dedupe, burst.length);
  expect(batches.map((batch) => batch.length)).toEqual([100, 100, 17]);
  expect(batches.flat()).toEqual(burst);
  expect(requests).toBeLessThanOrEqual(2 * 3 + 1); // each page read at most twice, one more to meet the mark

  const quiet = await listRequestsDuring(() => poll(apiKey, 'zap-burst'));
  expect(quiet.requests).toBe(1);
  expect(quiet.result).toEqual([]);
});

it('a backlog of 1 000: the oldest 100 in the first poll, then 100 a poll, each page read at most twice', async () => {
  const { accountId, apiKey } = account();
  const dedupe = new ZapierDedupe();
  dedupe.accept(await poll(apiKey, 'zap-flood'));
  const backlog = sandbox.seedLinks(accountId, 1000, { label: `flood${accounts}`, endAt: Date.now() + 60_000 }).map((link) => link.id);
  const { batches, requests } = await drain(apiKey, 'zap-flood', dedupe, backlog.length);
  expect(batches).toHaveLength(10);
  expect(batches[0]).toEqual(backlog.slice(0, 100));
  expect(batches.flat()).toEqual(backlog);
  expect(requests).toBeLessThanOrEqual(2 * 10 + 2);
  expect(await poll(apiKey, 'zap-flood')).toEqual([]);
});

it('keeps one state per Zap, so two Zaps on one connection both see every new link', async () => {
  const { apiKey, create } = account();
  const zapA = new ZapierDedupe();
  const zapB = new ZapierDedupe();
  zapA.accept(await poll(apiKey, 'zap-a'));
  zapB.accept(await poll(apiKey, 'zap-b'));
  const first = await create(3, 'shared-1');
  expect(zapA.accept(await poll(apiKey, 'zap-a')).map((l) => l.id).sort()).toEqual([...first].sort());
  const second = await create(2, 'shared-2');
  expect(zapB.accept(await poll(apiKey, 'zap-b')).map((l) => l.id).sort()).toEqual([...first, ...second].sort());
  expect(zapA.accept(await poll(apiKey, 'zap-a')).map((l) => l.id).sort()).toEqual([...second].sort());
});

it('the state moves on only past links Zapier was given: a poll whose state could not be saved comes again', async () => {
  const { apiKey, create } = account();
  const dedupe = new ZapierDedupe();
  dedupe.accept(await poll(apiKey, 'zap-save'));
  const made = await create(5, 'save');
  // z.cache fails once, as Zapier's cache service may: the poll fails and Zapier gets nothing from it.
  const cache = (appTester as unknown as { zcacheTestObj: Record<string, unknown> }).zcacheTestObj;
  let failures = 1;
  (appTester as unknown as { zcacheTestObj: Record<string, unknown> }).zcacheTestObj = new Proxy(cache, {
    set(target, key, value) {
      if (failures-- > 0) throw new Error('z.cache is unavailable');
      target[key as string] = value;
      return true;
    },
  });
  await expect(poll(apiKey, 'zap-save')).rejects.toThrow(/z.cache is unavailable/);
  expect(dedupe.accept(await poll(apiKey, 'zap-save')).map((l) => l.id).reverse()).toEqual(made);
});

it('without a Zap id it says so in the log, keeps no state and looks back over the newest 100 links', async () => {
  const { apiKey, create } = account();
  const logs: string[] = [];
  const original = console.log;
  process.env.LOG_TO_STDOUT = 'true';
  console.log = (...args: unknown[]) => logs.push(args.map(String).join(' '));
  let result: Link[];
  let requests: number;
  const created = await create(1, 'no-zap');
  try {
    ({ result, requests } = await listRequestsDuring(() => poll(apiKey, undefined)));
  } finally {
    console.log = original;
    delete process.env.LOG_TO_STDOUT;
  }
  expect(requests).toBe(1);
  expect(result[0]!.id).toBe(created[0]);
  expect(result.length).toBeLessThanOrEqual(NEW_LINK_MAX_ITEMS);
  expect(logs.join('\n')).toMatch(/no Zap id .* looks back over the newest 100/);
  // createAppTester keeps z.cache in zcacheTestObj (untyped): no poll state was stored (only the
  // connection's pacing state, src/sharedPacing.ts, which every step keeps).
  const keys = Object.keys((appTester as unknown as { zcacheTestObj: object }).zcacheTestObj);
  expect(keys.filter((key) => !key.startsWith('pacing:v1:'))).toEqual([]);
});

it('starts over from the newest page when the stored state is unreadable', async () => {
  const { apiKey } = account();
  // createAppTester's z.cache stand-in keeps JSON text per key, as Zapier's cache does.
  const cache = (appTester as unknown as { zcacheTestObj: Record<string, string> }).zcacheTestObj;
  cache['new_link:zap:zap-broken'] = JSON.stringify({ version: 99, mark: 'garbage' });
  const { result, requests } = await listRequestsDuring(() => poll(apiKey, 'zap-broken'));
  expect(result.length).toBeGreaterThan(0);
  expect(requests).toBe(2); // a fresh mark, then the newest page
  expect(JSON.parse(cache['new_link:zap:zap-broken']!)).toMatchObject({ version: 2 });
});
