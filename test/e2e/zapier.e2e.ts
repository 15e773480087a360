/**
 * The Zapier app as Zapier runs it: `zapier-platform build` makes build/build.zip, and every operation
 * goes through that zip's own handler (zapierwrapper.js) in a separate Node process, against a sandbox
 * started for this run. Assertions are on what the handler answers and on the sandbox's state.
 */
import { buildCampaignUrl } from '@shortlink/core/operations';
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { buildZapierZip } from './support/artifacts';
import { ZapierHandler } from './support/zapier-handler';

type Item = Record<string, unknown>;

let sandbox: Sandbox;
const handler = new ZapierHandler();
const allLogs = handler.printed;
const call = (method: string, bundle: Item) => handler.call(method, bundle);

const auth = () => ({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });

/** Runs an operation and returns its results, failing with the app's own message otherwise. */
async function perform<T = Item[]>(method: string, inputData: Item = {}, meta: Item = {}): Promise<T> {
  const answer = await call(method, { authData: auth(), inputData, meta });
  if (!answer.ok) throw new Error(`${method} failed: ${answer.error?.message}`);
  return answer.result!.results as T;
}

async function createDirectly(targetUrl: string): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetUrl }),
  });
  expect(response.status).toBe(201);
  return String(((await response.json()) as Item).id);
}

const demoLinks = () => sandbox.links(sandbox.demoAccountId);

beforeAll(async () => {
  const zip = buildZapierZip();
  // Room for the 150-link burst created straight against the API besides the app's own requests.
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
  await handler.start(zip);
}, 300_000);

afterAll(async () => {
  await handler.stop();
  await sandbox?.close();
});

describe('the built Zapier zip, through its handler', () => {
  it('auth test answers the account; a wrong key fails with the service detail, key not shown', async () => {
    const account = await perform<Item>('authentication.test');
    expect(account).toMatchObject({ id: sandbox.demoAccountId, plan: expect.objectContaining({ name: 'business' }) });

    const wrongKey = 'sl_wrong_key_0123456789';
    const answer = await call('authentication.test', { authData: { apiKey: wrongKey, baseUrl: sandbox.baseUrl }, inputData: {} });
    expect(answer.ok).toBe(false);
    expect(answer.error!.message).toMatch(/401|Unauthorized|API key/i);
    expect(answer.error!.message).not.toContain(wrongKey);
  });

  it('New Link: the first poll sets the mark, a burst larger than a poll arrives 100 at a time, oldest first, once', async () => {
    const meta = { zap: { id: 'e2e-zap-1' } };
    const first = await perform('triggers.new_link.operation.perform', {}, meta);
    expect(first.length).toBeGreaterThan(0); // the newest page, for Zapier's dedupe to start from

    const burst: string[] = [];
    for (let index = 0; index < 150; index++) burst.push(await createDirectly(`https://example.org/burst/${index}`));

    // Zapier holds the runs of a poll with more than 100 new items: the oldest 100 now, the rest next poll.
    const second = await perform('triggers.new_link.operation.perform', {}, meta);
    expect(second.map((link) => link.id)).toEqual(burst.slice(0, 100).reverse()); // newest first within the poll
    const third = await perform('triggers.new_link.operation.perform', {}, meta);
    expect(third.map((link) => link.id)).toEqual(burst.slice(100).reverse());
    const fourth = await perform('triggers.new_link.operation.perform', {}, meta);
    expect(fourth).toEqual([]);
  });

  it('after a quota refusal the next Create Link steps of the connection send nothing (state in z.cache)', async () => {
    const small = sandbox.createAccount({ name: 'Small Plan', email: 'small-plan-e2e@example.com', plan: 'business', linkQuota: 1 });
    const smallAuth = { apiKey: small.apiKey, baseUrl: sandbox.baseUrl };
    const posts = () => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/links')).length;
    const create = (row: number) => call('creates.create_link.operation.perform', { authData: smallAuth, inputData: { targetUrl: `https://example.org/quota-e2e-${row}` }, meta: {} });
    const before = posts();
    expect((await create(1)).ok).toBe(true);
    const refused = await create(2);
    expect(refused.ok).toBe(false);
    const told = await create(3);
    expect(told.ok).toBe(false);
    expect(told.error!.message).toMatch(/used up; this row was not sent\. The service refused a new link at \d\d:\d\d UTC/);
    expect(posts() - before).toBe(2);
    expect(sandbox.links(small.accountId)).toHaveLength(1);
  });

  it('Create Link with UTM, Update Link, Link Stats, Delete Link', async () => {
    const created = await perform<Item>('creates.create_link.operation.perform', {
      targetUrl: 'https://example.org/zapier-sale',
      utmSource: 'zapier',
      utmMedium: 'automation',
      utmCampaign: 'autumn',
      title: 'Autumn sale',
    });
    const campaignUrl = buildCampaignUrl('https://example.org/zapier-sale', { source: 'zapier', medium: 'automation', campaign: 'autumn' });
    expect(created).toMatchObject({ targetUrl: campaignUrl, title: 'Autumn sale' });
    const id = String(created.id);
    expect(demoLinks().find((link) => link.id === id)).toMatchObject({ targetUrl: campaignUrl });

    const updated = await perform<Item>('creates.update_link.operation.perform', { link: id, title: 'Autumn sale (extended)' });
    expect(updated).toMatchObject({ id, title: 'Autumn sale (extended)' });
    expect(demoLinks().find((link) => link.id === id)).toMatchObject({ title: 'Autumn sale (extended)' });

    const [stats] = await perform('searches.link_stats.operation.perform', { link: id });
    expect(stats).toMatchObject({ linkId: id, totalClicks: 0 });

    const deleted = await perform<Item>('creates.delete_link.operation.perform', { link: id });
    expect(deleted).toMatchObject({ id, deleted: true });
    expect(demoLinks().find((link) => link.id === id)).toBeUndefined();
  });

  it('Find Link by ID or Short URL, Find Link by target URL and by slug; none found is an empty answer', async () => {
    const seeded = demoLinks().find((link) => link.slug === 'spring-sale')!;
    expect(await perform('searches.get_link.operation.perform', { link: seeded.id })).toEqual([expect.objectContaining({ id: seeded.id })]);
    expect(await perform('searches.find_link.operation.perform', { targetUrl: seeded.targetUrl })).toEqual([expect.objectContaining({ id: seeded.id })]);
    expect(await perform('searches.find_link.operation.perform', { slug: 'spring-sale' })).toEqual([expect.objectContaining({ id: seeded.id })]);
    expect(await perform('searches.find_link.operation.perform', { targetUrl: 'https://example.org/never-shortened' })).toEqual([]);
  });

  it('search-or-create, run twice the way Zapier runs it, leaves one link', async () => {
    const input = { targetUrl: 'https://example.org/search-or-create' };
    // The create half is the hidden find_or_create_link (the core's Find or Create), as the app declares it.
    const runSearchOrCreate = async () => {
      const found = await perform('searches.find_link.operation.perform', input);
      if (found.length > 0) return { link: found[0]!, created: false };
      const made = await perform<Item>('creates.find_or_create_link.operation.perform', input);
      return { link: made, created: made.created as boolean };
    };

    const first = await runSearchOrCreate();
    const second = await runSearchOrCreate();

    expect(first.created).toBe(true);
    expect(second).toEqual({ link: expect.objectContaining({ id: first.link.id }), created: false });
    expect(demoLinks().filter((link) => link.targetUrl === input.targetUrl)).toHaveLength(1);
  });

  it('Get Campaign Report: line items with the totals beside them; a 1,000-link report refused in the step, before any statistics request', async () => {
    // The demo's three seeded links (clicked on the last days), chosen by ID: the account also holds the burst above.
    // They are the account's first three links (the lowest ids), whatever order the list shows.
    const chosen = demoLinks().map((link) => link.id).sort((a, b) => Number(a) - Number(b)).slice(0, 3);
    const links = chosen.length;
    const [report] = await perform('searches.campaign_report.operation.perform', { selectBy: 'chosen', links: chosen, shape: 'linkDay' });
    expect(report).toMatchObject({ days: 7, links, count: 7 * links });
    const rows = report!.rows as Item[];
    expect(rows).toHaveLength(7 * links);
    expect(Object.keys(rows[0]!)).toEqual(['date', 'shortUrl', 'title', 'targetUrl', 'campaign', 'source', 'medium', 'linkId', 'clicks', 'scans']);
    expect(rows.reduce((total, row) => total + (row.clicks as number), 0)).toBe(report!.clicks);
    expect(report!.clicks).toBeGreaterThan(0); // the seeded clicks of yesterday and the day before

    const big = sandbox.createAccount({ name: 'zip big', email: 'zip-big@example.org', plan: 'business' });
    sandbox.seedLinks(big.accountId, 1000, { label: 'zip-bulk' });
    const mark = sandbox.requests.length;
    const started = Date.now();
    const refused = await call('searches.campaign_report.operation.perform', { authData: { apiKey: big.apiKey, baseUrl: sandbox.baseUrl }, inputData: { selectBy: 'all' }, meta: {} });
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(refused.ok).toBe(false);
    expect(refused.error!.message).toMatch(/1000 links of the account.*at most 90 links here.*Narrow it/s);
    expect(sandbox.requests.slice(mark).filter((r) => r.path.includes('/stats'))).toHaveLength(0);
  });

  it('Preview Campaign Sheet and Create Links from Preview over a 50-row line-item list: what the preview said, once', async () => {
    const { accountId, apiKey } = sandbox.createAccount({ name: 'Zap sheet', email: 'zap-sheet@example.org', plan: 'business' });
    const authData = { apiKey, baseUrl: sandbox.baseUrl, utmPresets: 'Newsletter: source=newsletter, medium=email' };
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
    for (let i = 0; i < 5; i++) await client.createLink({ targetUrl: `https://example.org/zap-sheet/old-${i}` });
    // 5 rows whose links exist, 5 that are no URLs, then 20 links each given twice ("Newsletter" / the preset).
    const rows = Array.from({ length: 50 }, (_, i) =>
      i < 5 ? { targetUrl: `https://example.org/zap-sheet/old-${i}` }
      : i < 10 ? { targetUrl: `not a url ${i}` }
      : i % 2 === 0 ? { targetUrl: `https://example.org/zap-sheet/${i >> 1}`, utmSource: 'Newsletter', utmMedium: 'Email' }
      : { targetUrl: `https://example.org/zap-sheet/${i >> 1}`, utmPreset: 'newsletter' },
    );
    const step = async (method: string, inputData: Item) => {
      const answer = await call(method, { authData, inputData, meta: {} });
      if (!answer.ok) throw new Error(`${method} failed: ${answer.error?.message}`);
      return answer.result!.results as Item;
    };
    const [preview] = (await step('searches.preview_sheet.operation.perform', { rows })) as unknown as Item[];
    expect(preview).toMatchObject({ rows: 50, willCreate: 20, alreadyExist: 5, duplicates: 20, willFail: 5, count: 50 });
    expect(sandbox.links(accountId)).toHaveLength(5);
    const done = await step('creates.create_from_preview.operation.perform', { rows, reviewToken: preview!.reviewToken });
    expect(done).toMatchObject({ created: 20, alreadyExist: 5, duplicates: 20, failed: 5, complete: true, count: 50 });
    const results = done.rowResults as Item[];
    expect(results.filter((row) => row.status === 'duplicate').every((row) => row.linkId === results[(row.sameAsRow as number) - 1]!.linkId)).toBe(true);
    expect(sandbox.links(accountId)).toHaveLength(25);
    // The step run again (Zapier replays it): nothing new.
    const again = await step('creates.create_from_preview.operation.perform', { rows, reviewToken: preview!.reviewToken });
    expect((again.rowResults as Item[]).map((row) => row.linkId)).toEqual(results.map((row) => row.linkId));
    expect(sandbox.links(accountId)).toHaveLength(25);
  });

  it('never logs the API key', () => {
    expect(allLogs.length).toBeGreaterThan(0);
    expect(allLogs.join('\n')).not.toContain(sandbox.apiKey);
  });
});
