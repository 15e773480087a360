/**
 * Isolation (issue 7, item 6): two business accounts on one sandbox. With B's key, no operation of the
 * core, the n8n node or the Zapier app reads, changes or deletes A's links: each answer is a 404 (or
 * "not found" for a search), never A's data, and A's links are untouched afterwards. B's listings,
 * searches and trigger never show A's links.
 */
import { startSandbox, type Sandbox, type Link } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';
import { createClient } from '@shortlink/core';
import { runNode, triggerHost } from '../../packages/n8n-nodes-shortlink/test/harness';
import { pollBundle } from '../../packages/zapier/test/helpers';
import { n8nDriver, standaloneCoreDriver, zapierDriver, ZapierRunner, type Account, type LinkDriver, type Outcome } from './support/drivers';

let sandbox: Sandbox;
let a: Account & { accountId: string };
let b: Account & { accountId: string };
let aLinks: Link[];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  const accountA = sandbox.createAccount({ name: 'Account A', email: 'a@example.com', plan: 'business' });
  const accountB = sandbox.createAccount({ name: 'Account B', email: 'b@example.com', plan: 'business' });
  sandbox.addDomain(accountA.accountId, 'a-only.example.org', true);
  a = { ...accountA, baseUrl: sandbox.baseUrl };
  b = { ...accountB, baseUrl: sandbox.baseUrl };
  const created = await standaloneCoreDriver(a).createLinks([
    { targetUrl: 'https://a.example/secret-campaign', title: 'A only', slug: 'a-campaign' },
    { targetUrl: 'https://a.example/other', title: 'A other' },
  ]);
  expect(created.every((outcome) => outcome.ok)).toBe(true);
  aLinks = sandbox.links(a.accountId);
  expect(aLinks).toHaveLength(2);
});
afterAll(async () => {
  await sandbox.close();
});

/** The failure is a 404 in the host's words; its text holds none of A's data. */
function expectNotFound(outcome: Outcome<unknown>): void {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  expect(outcome.message).toMatch(/not found|404|no link/i);
  for (const link of aLinks) {
    expect(outcome.message).not.toContain(link.targetUrl);
    expect(outcome.message).not.toContain(link.title);
  }
}

function expectNoneOfA(values: unknown): void {
  const text = JSON.stringify(values);
  for (const link of aLinks) {
    expect(text).not.toContain(link.targetUrl);
    expect(text).not.toContain(`"${link.id}"`);
  }
}

describe.each([
  ['core', () => standaloneCoreDriver(b)],
  ['n8n', () => n8nDriver(b)],
  ['Zapier', () => zapierDriver(b)],
] as Array<[string, () => LinkDriver]>)('with B’s key through %s', (name, driverFor) => {
  test('reading, changing, deleting and the stats of A’s links answer 404 (Zapier: none found; both hosts: already deleted)', async () => {
    const driver = driverFor();
    for (const link of aLinks) {
      const read = await driver.getLink(link.id);
      expectNotFound(read);
      const stats = await driver.getStats(link.id);
      const [update] = await driver.updateTitles([{ id: link.id, title: `changed by B via ${name}` }]);
      expectNotFound(update!);
      const [removal] = await driver.deleteLinks([link.id]);
      if (name === 'Zapier') {
        // Zapier's convention: a search finds nothing (an empty answer). Shows nothing of A's link.
        expect(stats).toEqual({ ok: true, value: [] });
      } else {
        expectNotFound(stats);
      }
      if (name === 'Zapier' || name === 'n8n') {
        // Delete is idempotent on both hosts (the core's link.delete, docs/api-contract.md): a link that is not
        // there is a success that says so, with nothing of A's link.
        expect(removal).toEqual({ ok: true, value: { shortUrl: null, id: link.id, targetUrl: null, title: null, deleted: true, alreadyDeleted: true } });
      } else {
        expectNotFound(removal!);
      }
    }
    // A's links are exactly as they were.
    expect(sandbox.links(a.accountId)).toEqual(aLinks);
  });

  test('B’s listing and searches never show A’s links', async () => {
    const driver = driverFor();
    const listed = await driver.listLinks();
    expect(listed.ok).toBe(true);
    expectNoneOfA(listed.ok ? listed.value : undefined);
    const found = await driver.findByTargetUrl(aLinks[0]!.targetUrl);
    expect(found).toMatchObject({ ok: true, value: [] });
  });

  test('B taking A’s slug on the default domain gets a conflict that shows none of A’s link', async () => {
    const driver = driverFor();
    const [created] = await driver.createLinks([{ targetUrl: `https://b.example/${name}`, slug: 'a-campaign' }]);
    expect(created!.ok).toBe(false);
    if (!created!.ok) {
      expect(created!.message).toMatch(/conflict|already|taken|in use/i);
      expectNoneOfA(created!.message);
    }
    expect(sandbox.links(a.accountId)).toEqual(aLinks);
  });
});

describe('A’s custom domain stays A’s', () => {
  test.each([
    ['core', () => standaloneCoreDriver(b)],
    ['n8n', () => n8nDriver(b)],
    ['Zapier', () => zapierDriver(b)],
  ] as Array<[string, () => LinkDriver]>)('%s: B cannot create a link on it', async (_name, driverFor) => {
    const [created] = await driverFor().createLinks([{ targetUrl: 'https://b.example/on-a-domain', domain: 'a-only.example.org' }]);
    expect(created!.ok).toBe(false);
    if (!created!.ok) expect(created!.message).toMatch(/domain/i);
    expect(sandbox.links(b.accountId).some((link) => link.domain === 'a-only.example.org')).toBe(false);
  });

  test('B’s domain lists do not show it (core, n8n, Zapier)', async () => {
    const core = createClient({ baseUrl: b.baseUrl, apiKey: b.apiKey });
    const zapier = new ZapierRunner();
    const lists = [
      await core.listDomains(),
      await runNode({ credentials: { apiKey: b.apiKey, baseUrl: b.baseUrl }, parameters: { resource: 'domain', operation: 'getAll' } as never }),
      await zapier.invoke('triggers.domain_list.operation.perform', { authData: { apiKey: b.apiKey, baseUrl: b.baseUrl }, inputData: {} }),
    ];
    expect(JSON.stringify(lists)).not.toContain('a-only.example.org');
    // …while A sees it: the check above is not vacuous.
    expect(JSON.stringify(await createClient({ baseUrl: a.baseUrl, apiKey: a.apiKey }).listDomains())).toContain('a-only.example.org');
  });
});

describe('triggers with B’s key never emit A’s links', () => {
  test('n8n', async () => {
    const host = triggerHost({ apiKey: b.apiKey, baseUrl: b.baseUrl });
    await host.poll();
    await standaloneCoreDriver(a).createLinks([{ targetUrl: 'https://a.example/after-b-started' }]);
    aLinks = sandbox.links(a.accountId);
    const emitted = (await host.poll()) ?? [];
    expectNoneOfA(emitted as IDataObject[]);
    // B has no link: its test says so, rather than showing any link (A's least of all).
    await expect(host.poll('manual')).rejects.toThrow('No link in this account yet, so there is no sample to show');
  });

  test('Zapier', async () => {
    const zapier = new ZapierRunner();
    const bundle = pollBundle(b.baseUrl, b.apiKey, 'zap-b');
    const first = await zapier.invoke('triggers.new_link.operation.perform', structuredClone(bundle));
    await standaloneCoreDriver(a).createLinks([{ targetUrl: 'https://a.example/after-zap-b-started' }]);
    aLinks = sandbox.links(a.accountId);
    const second = await zapier.invoke('triggers.new_link.operation.perform', structuredClone(bundle));
    expectNoneOfA([first, second]);
  });
});
