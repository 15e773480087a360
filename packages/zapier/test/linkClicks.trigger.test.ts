/**
 * The link_clicks polling trigger against the sandbox with real clicks (requests to its redirect
 * endpoint), across polls as Zapier runs them: its id dedupe modelled by ZapierDedupe, its per-Zap state
 * in createAppTester's z.cache stand-in. At most 100 items a poll, every milestone once, never a repeated
 * id; without a Zap id a look-back that Zapier's dedupe completes.
 */
import { linkIdentity } from '@shortlink/core/host';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { click } from '../../../test/support/clicks';
import { MAX_NEW_ITEMS_PER_POLL } from '../src/triggers/pollState';
import { newAppTester, pollBundle, run, ZapierDedupe, type AppTester } from './helpers';

type Item = { id: string; linkId: string; clicks: number; clicksBefore: number | null; newClicks: number | null; milestone?: number; shortUrl: string; targetUrl: string };

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

function account() {
  const { accountId, apiKey } = sandbox.createAccount({ name: `Zap clicks ${++accounts}`, email: `zap-clicks${accounts}@example.com`, plan: 'business' });
  return { accountId, apiKey };
}

function poll(apiKey: string, inputData: Record<string, unknown>, zapId: string | null = 'zap-1'): Promise<Item[]> {
  const bundle = { ...pollBundle(sandbox.baseUrl, apiKey, zapId ?? ''), inputData };
  if (zapId === null) delete (bundle.meta as { zap?: unknown }).zap;
  return run<Item[]>(appTester, 'triggers.link_clicks', bundle);
}

test('milestones reached between polls fire once each; ids are link + milestone; the full link goes along', async () => {
  const a = account();
  const [one, two] = sandbox.seedLinks(a.accountId, 2, { label: 'zc-ms' });
  const input = { clicksMode: 'milestones', milestones: '2, 5', clicksScope: 'recent', createdWithinDays: '30' };
  const dedupe = new ZapierDedupe();
  expect(dedupe.accept(await poll(a.apiKey, input))).toEqual([]);
  await click(one!.shortUrl, 2);
  await click(two!.shortUrl, 6);
  const items = await poll(a.apiKey, input);
  expect(items.map((i) => i.id).sort()).toEqual([`${linkIdentity(one!)}:m2`, `${linkIdentity(two!)}:m2`, `${linkIdentity(two!)}:m5`].sort());
  expect(items.find((i) => i.id === `${linkIdentity(two!)}:m5`)).toEqual({ ...two, id: `${linkIdentity(two!)}:m5`, linkId: two!.id, clicks: 6, clicksBefore: 0, newClicks: 6, milestone: 5 });
  expect(dedupe.accept(items)).toHaveLength(3);
  expect(await poll(a.apiKey, input)).toEqual([]);
});

test('new clicks: ids are link + count, so a repeat is impossible', async () => {
  const a = account();
  const [one] = sandbox.seedLinks(a.accountId, 1, { label: 'zc-nc' });
  const input = { clicksMode: 'newClicks', clicksScope: 'chosen', linkIds: [one!.id] };
  await poll(a.apiKey, input);
  await click(one!.shortUrl, 2);
  expect((await poll(a.apiKey, input)).map((i) => [i.id, i.clicksBefore, i.clicks, i.newClicks])).toEqual([[`${linkIdentity(one!)}:c2`, 0, 2, 2]]);
  await click(one!.shortUrl, 1);
  expect((await poll(a.apiKey, input)).map((i) => [i.id, i.clicksBefore, i.newClicks])).toEqual([[`${linkIdentity(one!)}:c3`, 2, 1]]);
});

test(`at most ${MAX_NEW_ITEMS_PER_POLL} items a poll; the rest follow, every one once`, async () => {
  const a = account();
  const links = sandbox.seedLinks(a.accountId, 60, { label: 'zc-cap' });
  const input = { clicksMode: 'milestones', milestones: '1, 2', clicksScope: 'recent' };
  const dedupe = new ZapierDedupe();
  dedupe.accept(await poll(a.apiKey, input));
  for (const link of links) await click(link.shortUrl, 2);
  const fired: string[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const items = await poll(a.apiKey, input);
    sizes.push(items.length);
    expect(dedupe.accept(items)).toHaveLength(items.length); // nothing Zapier has seen comes again
    fired.push(...items.map((item) => item.id));
  }
  expect(sizes).toEqual([100, 20, 0]);
  expect(fired.sort()).toEqual(links.flatMap((l) => [`${linkIdentity(l)}:m1`, `${linkIdentity(l)}:m2`]).sort());
});

test('without a Zap id: a logged look-back over the milestones reached; Zapier\'s dedupe fires the new ones', async () => {
  const a = account();
  const [one, two] = sandbox.seedLinks(a.accountId, 2, { label: 'zc-lb' });
  await click(one!.shortUrl, 3);
  const input = { clicksMode: 'milestones', milestones: '2, 5', clicksScope: 'recent' };
  const dedupe = new ZapierDedupe();
  const first = await poll(a.apiKey, input, null);
  expect(first.map((i) => [i.id, i.clicksBefore, i.newClicks])).toEqual([[`${linkIdentity(one!)}:m2`, null, null]]);
  expect(dedupe.accept(first)).toEqual([]);
  await click(two!.shortUrl, 2);
  await click(one!.shortUrl, 2);
  expect(dedupe.accept(await poll(a.apiKey, input, null)).map((i) => i.id).sort()).toEqual([`${linkIdentity(one!)}:m5`, `${linkIdentity(two!)}:m2`].sort());
});

test('a connection that now names another account starts over without firing its clicks', async () => {
  const a = account();
  const b = account();
  const [lb] = sandbox.seedLinks(b.accountId, 1, { label: 'zc-sw' });
  await click(lb!.shortUrl, 3);
  const input = { clicksMode: 'milestones', milestones: '1', clicksScope: 'recent' };
  await poll(a.apiKey, input);
  expect(await poll(b.apiKey, input)).toEqual([]);
  await click(lb!.shortUrl, 1);
  expect(await poll(b.apiKey, input)).toEqual([]);
});

test('bad input names the field before any request', async () => {
  const a = account();
  const before = sandbox.requests.length;
  await expect(poll(a.apiKey, { clicksMode: 'milestones', milestones: '1,000', clicksScope: 'recent' })).rejects.toThrow(/Milestones: .{0,4}000.{0,4} is not a whole number above 0/);
  await expect(poll(a.apiKey, { clicksMode: 'newClicks', clicksScope: 'recent', createdWithinDays: '0' })).rejects.toThrow(/Created Within \(Days\).{0,4} must be a whole number from 1 to 3650/);
  await expect(poll(a.apiKey, { clicksMode: 'newClicks', clicksScope: 'chosen' })).rejects.toThrow(/Add at least one link to .{0,4}Links.{0,4}, or watch the links created in the last days/);
  expect(sandbox.requests.length).toBe(before);
});
