/** Every client method against the sandbox (real HTTP on loopback, axios transport, real timers). */
import { startSandbox } from '@shortlink/sandbox';
import type { Sandbox } from '@shortlink/sandbox';
import { AuthenticationError, ConflictError, NotFoundError, ValidationError, createClient } from '@shortlink/core';
import { buildCampaignUrl } from '@shortlink/core/operations';
import type { NewLinksState } from '@shortlink/core/host';
import type { ShortLinkClient } from '@shortlink/core';

let sandbox: Sandbox;
let client: ShortLinkClient;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
  client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('links', () => {
  test('create → get → update → stats → delete', async () => {
    const targetUrl = buildCampaignUrl('https://example.org/launch?ref=x#top', { source: 'newsletter', campaign: 'launch 2026' });
    const made = await client.createLink({ targetUrl, slug: 'launch-2026', title: 'Launch' });
    expect(Object.keys(made).sort()).toEqual(['active', 'clicks', 'createdAt', 'domain', 'id', 'shortUrl', 'slug', 'targetUrl', 'title']);
    expect(made).toMatchObject({ slug: 'launch-2026', targetUrl, title: 'Launch', domain: null, active: true, clicks: 0 });

    const full = await client.getLink(made.id);
    expect(full).toMatchObject({ ...made, blocked: false, hasPassword: false, expiresAt: null });

    const updated = await client.updateLink(made.id, { title: 'Launch (extended)', expiresAt: '2030-01-01T00:00:00+01:00' });
    expect(updated).toMatchObject({ title: 'Launch (extended)', expiresAt: '2029-12-31T23:00:00.000Z' });
    const cleared = await client.updateLink(made.id, { expiresAt: null });
    expect(cleared.expiresAt).toBeNull();

    const stats = await client.getLinkStats(made.id);
    expect(stats).toMatchObject({ linkId: made.id, totalClicks: 0, clicksByDay: [] });

    await client.deleteLink(made.id);
    await expect(client.getLink(made.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.deleteLink(made.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('stats of a seeded link have every breakdown', async () => {
    const [seeded] = await client.findLinks({ slug: 'spring-sale', domain: null });
    const stats = await client.getLinkStats(seeded!.id);
    expect(stats.totalClicks).toBeGreaterThan(0);
    for (const list of [stats.topCountries, stats.topDevices, stats.topBrowsers, stats.topReferrers]) expect(list.length).toBeGreaterThan(0);
  });

  test('listLinks pages and iterateLinks walks them all', async () => {
    for (let i = 0; i < 5; i++) await client.createLink({ targetUrl: `https://example.org/page-${i}` });
    const first = await client.listLinks({ limit: 2 });
    expect(first.links).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listLinks({ limit: 2, cursor: first.nextCursor! });
    expect(second.links[0]!.id).not.toBe(first.links[1]!.id);
    const all: string[] = [];
    for await (const link of client.iterateLinks({ pageSize: 3 })) all.push(link.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(sandbox.links(sandbox.demoAccountId).length);
  });

  test('the service validates what the client leaves to it (422 with fieldErrors) and reports slug conflicts (409)', async () => {
    const invalid = await client.createLink({ targetUrl: 'https://example.org', slug: 'no spaces allowed' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).fieldErrors.map((f) => f.field)).toContain('slug');

    await client.createLink({ targetUrl: 'https://example.org/one', slug: 'taken-slug' });
    const conflict = await client.createLink({ targetUrl: 'https://example.org/two', slug: 'taken-slug' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).message).toMatch(/taken-slug/);
  });

  test('ids are path-encoded: ../me and 1/stats never reach another endpoint', async () => {
    for (const id of ['../me', '1/stats', '%2F', '..%2Fme']) {
      await expect(client.getLink(id)).rejects.toBeInstanceOf(NotFoundError);
    }
    const paths = sandbox.requests.slice(-4).map((r) => r.path);
    expect(paths).toEqual(['/api/v1/links/..%2Fme', '/api/v1/links/1%2Fstats', '/api/v1/links/%252F', '/api/v1/links/..%252Fme']);
  });
});

describe('helpers', () => {
  test('findLinks by target URL, slug and domain', async () => {
    const docs = await client.findLinks({ slug: 'docs', domain: 'go.example.org' });
    expect(docs).toHaveLength(1);
    expect(docs[0]!.domain).toBe('go.example.org');
    expect(await client.findLinks({ slug: 'docs', domain: null })).toEqual([]);
    const byTarget = await client.findLinks({ targetUrl: 'https://example.org/pricing' });
    expect(byTarget.map((l) => l.title)).toContain('Pricing');
  });

  test('findOrCreateLink creates once, then returns the same link', async () => {
    const input = { targetUrl: 'https://example.org/once', slug: 'once-only' };
    const first = await client.findOrCreateLink(input);
    const second = await client.findOrCreateLink(input);
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, link: { id: first.link.id } });
    const onDomain = await client.findOrCreateLink({ targetUrl: 'https://example.org/once', domain: 'go.example.org' });
    expect(onDomain.created).toBe(true);
    expect(onDomain.link.domain).toBe('go.example.org');
  });

  test('pollNewLinks: first run marks, later runs return new links oldest → newest', async () => {
    const first = await client.pollNewLinks(undefined, { pageSize: 5 });
    expect(first.links).toEqual([]);
    let state: NewLinksState = JSON.parse(JSON.stringify(first.state));
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await client.createLink({ targetUrl: `https://example.org/new-${i}` })).id);
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await client.pollNewLinks(state, { pageSize: 2, maxPages: 2 });
      seen.push(...result.links.map((l) => l.id));
      state = result.state;
      if (result.complete && result.links.length === 0) break;
    }
    expect(seen).toEqual(made);
  });
});

describe('account and domains', () => {
  test('getAccount and listDomains', async () => {
    const account = await client.getAccount();
    expect(account).toMatchObject({ name: 'Demo Business', email: 'demo@example.com', plan: { name: 'business', apiAccess: true } });
    const domains = await client.listDomains();
    expect(domains.map((d) => d.hostname)).toContain('go.example.org');
  });

  test('a wrong key is an AuthenticationError that does not show the key', async () => {
    const wrongKey = 'sk_wrong_key_that_must_not_leak_123';
    const wrong = createClient({ baseUrl: sandbox.baseUrl, apiKey: wrongKey });
    const error = await wrong.getAccount().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify({ m: (error as Error).message, s: (error as Error).stack })).not.toContain(wrongKey);
  });
});
