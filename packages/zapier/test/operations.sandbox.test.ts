/**
 * Every operation through createAppTester against the sandbox (real HTTP on loopback): the app, the core
 * and the service's own validation and errors together.
 */
import nock from 'nock';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { authData, newAppTester, run, runChoices, type AppTester } from './helpers';

type Link = { id: string; slug: string; shortUrl: string; targetUrl: string; title: string; domain: string | null; active: boolean; expiresAt?: string | null; hasPassword?: boolean };

let sandbox: Sandbox;
let appTester: AppTester;
let auth: { baseUrl: string; apiKey: string };

beforeAll(async () => {
  // A generous limit: these tests are about the operations, not the rate limit.
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
  auth = authData(sandbox.baseUrl, sandbox.apiKey);
});
afterAll(async () => {
  await sandbox.close();
  nock.restore(); // nock leaves Node's http module as found
});
beforeEach(() => {
  appTester = newAppTester();
});

/** Zapier errors carry their fields JSON-encoded in the message. */
async function failure(promise: Promise<unknown>): Promise<{ name: string; fields: Record<string, unknown>; raw: string }> {
  try {
    await promise;
  } catch (error) {
    const { name, message } = error as Error;
    let fields: Record<string, unknown> = { message };
    try {
      fields = JSON.parse(message) as Record<string, unknown>;
    } catch {
      // ExpiredAuthError and friends carry a plain message
    }
    return { name, fields, raw: `${message} ${(error as Error).stack ?? ''}` };
  }
  throw new Error('expected the call to fail');
}

describe('authentication against the sandbox', () => {
  it('accepts the demo key and labels the connection', async () => {
    const account = await run<{ name: string; email: string }>(appTester, 'authentication.test', { authData: auth });
    expect(account).toMatchObject({ name: 'Demo Business', email: 'demo@example.com' });
    expect(await run(appTester, 'authentication.connectionLabel', { authData: auth, inputData: account })).toBe('Demo Business (demo@example.com)');
  });

  it('says to check the key for an unknown key while connecting, without echoing it', async () => {
    const wrongKey = 'sk_wrong_key_that_must_not_leak_42';
    const { name, raw } = await failure(run(appTester, 'authentication.test', { authData: authData(sandbox.baseUrl, wrongKey) }));
    // While connecting there is nothing to reconnect: the message says to check the key.
    expect(name).not.toBe('ExpiredAuthError');
    expect(raw).toMatch(/Check the API Key/);
    expect(raw).not.toMatch(/reconnect/i);
    expect(raw).not.toContain(wrongKey);
  });

  it('tells a pro account that API access needs the business plan', async () => {
    const pro = sandbox.createAccount({ name: 'Pro Shop', email: 'pro@example.com', plan: 'pro' });
    const { fields } = await failure(run(appTester, 'authentication.test', { authData: authData(sandbox.baseUrl, pro.apiKey) }));
    expect(fields).toMatchObject({ code: 'plan_required', status: 403 });
    expect(fields.message).toMatch(/business plan or higher/);
  });
});

describe('link operations against the sandbox', () => {
  it('creates, finds, updates, reads statistics of and deletes a link', async () => {
    const domains = await run<Array<{ hostname: string }>>(appTester, 'triggers.domain_list', { authData: auth });
    expect(domains.map((domain) => domain.hostname)).toContain('go.example.org');

    const created = await run<Link>(appTester, 'creates.create_link', {
      authData: auth,
      inputData: {
        targetUrl: 'https://example.org/summer',
        utmSource: 'newsletter',
        utmCampaign: 'summer sale',
        slug: 'summer-zap',
        title: 'Summer',
        domain: 'go.example.org',
        expiresAt: '2030-06-30T12:00:00+02:00',
      },
    });
    expect(created).toMatchObject({
      slug: 'summer-zap',
      title: 'Summer',
      domain: 'go.example.org',
      active: true,
      targetUrl: 'https://example.org/summer?utm_source=newsletter&utm_campaign=summer_sale',
    });
    expect(created.shortUrl).toMatch(/go\.example\.org\/summer-zap$/);

    const byId = await run<Link[]>(appTester, 'searches.get_link', { authData: auth, inputData: { link: created.id } });
    expect(byId).toEqual([expect.objectContaining({ id: created.id, expiresAt: '2030-06-30T10:00:00.000Z' })]);
    // Create hands out what Get reads right after: the twelve fields, same values (Short URL first).
    expect(created).toEqual(byId[0]);
    expect(Object.keys(created)[0]).toBe('shortUrl');
    const bySlug = await run<Link[]>(appTester, 'searches.find_link', { authData: auth, inputData: { slug: 'summer-zap', domain: 'go.example.org' } });
    expect(bySlug.map((link) => link.id)).toEqual([created.id]);
    const byTarget = await run<Link[]>(appTester, 'searches.find_link', { authData: auth, inputData: { targetUrl: created.targetUrl, domain: 'go.example.org' } });
    expect(byTarget.map((link) => link.id)).toEqual([created.id]);
    const byShortUrl = await run<Link[]>(appTester, 'searches.get_link', { authData: auth, inputData: { link: created.shortUrl } });
    expect(byShortUrl.map((link) => link.id)).toEqual([created.id]);
    // The same slug on the default domain is another link (and there is none).
    expect(await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: `${sandbox.baseUrl}/summer-zap` } })).toEqual([]);

    const updated = await run<Link>(appTester, 'creates.update_link', {
      authData: auth,
      inputData: { link: created.id, title: 'Summer (paused)', active: 'false', removeExpiry: 'true' },
    });
    expect(updated).toMatchObject({ id: created.id, title: 'Summer (paused)', active: false, expiresAt: null, slug: 'summer-zap' });

    // Update completes what Create can do: a password set and removed, the title cleared, UTM on the current URL.
    const locked = await run<Link>(appTester, 'creates.update_link', { authData: auth, inputData: { link: created.id, password: 'open sesame' } });
    expect(locked.hasPassword).toBe(true);
    const opened = await run<Link>(appTester, 'creates.update_link', {
      authData: auth,
      inputData: { link: created.id, removePassword: 'yes', removeTitle: 'yes', utmMedium: 'email' },
    });
    expect(opened).toMatchObject({ hasPassword: false, title: '', targetUrl: 'https://example.org/summer?utm_source=newsletter&utm_campaign=summer_sale&utm_medium=email' });
    await run<Link>(appTester, 'creates.update_link', { authData: auth, inputData: { link: created.id, title: 'Summer (paused)' } });

    const [stats] = await run<Array<Record<string, unknown>>>(appTester, 'searches.link_stats', { authData: auth, inputData: { link: created.id } });
    expect(stats).toMatchObject({ shortUrl: created.shortUrl, title: 'Summer (paused)', linkId: created.id, totalClicks: 0, clicksByDay: [], topCountries: [] });

    const deleted = { shortUrl: created.shortUrl, id: created.id, targetUrl: opened.targetUrl, title: 'Summer (paused)', deleted: true };
    expect(await run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: created.id } })).toEqual({ ...deleted, alreadyDeleted: false });
    expect(await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: created.id } })).toEqual([]);
    // The same delete again (Zapier replays a step, or the Zap runs twice): a success that says so.
    expect(await run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: created.id } })).toEqual({
      shortUrl: null,
      id: created.id,
      targetUrl: null,
      title: null,
      deleted: true,
      alreadyDeleted: true,
    });
    expect(await run(appTester, 'searches.link_stats', { authData: auth, inputData: { link: created.id } })).toEqual([]);
  });

  it('gives the statistics of a seeded link with clicks, and its clicks per day as line items', async () => {
    const [seeded] = await run<Link[]>(appTester, 'searches.find_link', { authData: auth, inputData: { slug: 'spring-sale' } });
    const [stats] = await run<Array<Record<string, unknown>>>(appTester, 'searches.link_stats', { authData: auth, inputData: { link: seeded!.id } });
    expect(stats!.totalClicks).toBeGreaterThan(0);
    expect(typeof (stats!.topCountries as Array<{ label: string }>)[0]!.label).toBe('string');
    const days = stats!.clicksByDay as Array<{ date: string; clicks: number }>;
    const [daily] = await run<Array<{ count: number; days: Array<Record<string, unknown>> }>>(appTester, 'searches.daily_clicks', { authData: auth, inputData: { link: seeded!.id } });
    expect(daily!.count).toBe(days.length);
    expect(daily!.days).toEqual(days.map((day) => ({ shortUrl: seeded!.shortUrl, title: seeded!.title, linkId: seeded!.id, date: day.date, clicks: day.clicks })));
  });

  it('gives a row for every day, also for a link nobody clicked, when days without clicks are asked for', async () => {
    const quiet = await run<Link>(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org/quiet-zap' } });
    const today = new Date().toISOString().slice(0, 10);
    const [daily] = await run<Array<{ count: number; days: Array<{ date: string; clicks: number }> }>>(appTester, 'searches.daily_clicks', {
      authData: auth,
      inputData: { link: quiet.id, from: today, to: today, includeDaysWithoutClicks: 'true' },
    });
    expect(daily).toMatchObject({ count: 1, days: [{ date: today, clicks: 0, shortUrl: quiet.shortUrl }] });
    expect(await run(appTester, 'searches.daily_clicks', { authData: auth, inputData: { link: quiet.id } })).toEqual([]);
  });

  it('is a search-or-create pair whose create half runs Find or Create of the core: one link however often it runs', async () => {
    const inputData = { targetUrl: 'https://example.org/find-or-create', utmSource: 'zapier' };
    expect(await run(appTester, 'searches.find_link', { authData: auth, inputData })).toEqual([]);
    const created = await run<Link & { created: boolean }>(appTester, 'creates.find_or_create_link', { authData: auth, inputData });
    expect(created).toMatchObject({ targetUrl: 'https://example.org/find-or-create?utm_source=zapier', created: true });
    // The create half run again (Zapier replays it, or the search half had other UTM values): the same link.
    expect(await run(appTester, 'creates.find_or_create_link', { authData: auth, inputData })).toEqual({ ...created, created: false });
    // The connection's stored index holds the new link: the search half finds it at once.
    const found = await run<Link[]>(appTester, 'searches.find_link', { authData: auth, inputData });
    expect(found.map((link) => link.id)).toEqual([created.id]);
    // Find Links hands every match as line items, for looping.
    expect(await run(appTester, 'searches.find_links', { authData: auth, inputData })).toEqual([{ count: 1, links: found }]);
  });

  it('passes on the service detail of a rejected slug, a taken slug and an unverified domain', async () => {
    const invalid = await failure(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', slug: 'no spaces!' } }));
    // Checked before sending (the core's rule, as on n8n), in words under the form's label, never a raw pattern.
    expect(invalid.fields).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(invalid.fields.message).toMatch(/^Slug may contain letters, digits/);
    expect(invalid.fields.message).not.toMatch(/\^|\$"/);

    const taken = await failure(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', slug: 'spring-sale' } }));
    expect(taken.fields).toMatchObject({ code: 'conflict', status: 409 });
    expect(taken.fields.message).toMatch(/spring-sale/);

    const domain = await failure(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', domain: 'not-mine.example.net' } }));
    expect(domain.fields.status).toBe(403);
    expect(domain.fields.code).toBe('domain_not_allowed'); // not the plan advice: the plan is fine
  });

  it('reports an unknown link id with the service detail', async () => {
    const { fields } = await failure(run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '999999', title: 'x' } }));
    expect(fields).toMatchObject({ code: 'not_found', status: 404 });
    expect(fields.message).toMatch(/999999/);
  });
});

describe('the plan quota across the steps of a connection', () => {
  it('after the service refuses a link for the quota, the next steps are told at once and send nothing', async () => {
    const small = sandbox.createAccount({ name: 'Small Plan', email: 'small-plan@example.com', plan: 'business', linkQuota: 1 });
    const smallAuth = authData(sandbox.baseUrl, small.apiKey);
    const posts = () => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/links')).length;
    const before = posts();
    const create = (row: number) => run<Link>(appTester, 'creates.create_link', { authData: smallAuth, inputData: { targetUrl: `https://example.org/quota-row-${row}` } });
    expect((await create(1)).shortUrl).toBeTruthy();
    const refused = await failure(create(2));
    expect(refused.fields).toMatchObject({ status: 403 });
    const told = await failure(create(3));
    expect(told.raw).toMatch(/used up; this row was not sent\. The service refused a new link at \d\d:\d\d UTC; for up to 10 minutes/);
    expect(posts() - before).toBe(2); // the third step sent nothing
    // A step of another connection (the demo account) is not held back by it.
    expect((await run<Link>(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org/quota-other' } })).shortUrl).toBeTruthy();
  });
});

describe('triggers against the sandbox', () => {
  it('loads at most three samples, newest first', async () => {
    const samples = await run<Link[]>(appTester, 'triggers.new_link', { authData: auth, inputData: {}, meta: { isLoadingSample: true } });
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.length).toBeLessThanOrEqual(3);
  });

  it('pages the links dropdown by the paging token Zapier hands back', async () => {
    type Choices = { results: Array<{ id: string; label: string }>; paging_token: string | null };
    const first = await runChoices<Choices>(appTester, 'creates.delete_link', 'link', { authData: auth, meta: {} });
    expect(first.results.length).toBeGreaterThanOrEqual(3);
    expect(first.results.every((choice) => choice.label.includes('://'))).toBe(true);
    expect(first.paging_token).toBeNull(); // the seeded account fits in one page
  });
});
