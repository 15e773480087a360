/**
 * Get Campaign Report and the Clicks Per Day trigger in the Zapier app, against the sandbox with real clicks:
 * the report's rows as line items with the totals beside them; a 1,000-link report refused within the
 * step's 25 s before any statistics request, saying what to narrow; the trigger's items once per link
 * and day across checks (per-Zap state in z.cache), newest first.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { click } from '../../../test/support/clicks';
import { authData, newAppTester, pollBundle, run, type AppTester } from './helpers';

const DAY = 86_400_000;
let shift = 0;
let sandbox: Sandbox;
let appTester: AppTester;
let apiKey = '';
let clickDay = '';
const links: { id: string; shortUrl: string }[] = [];
const api = () => sandbox.requests.filter((r) => r.path.startsWith('/api/v1/'));

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.now() + shift, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  ({ apiKey } = sandbox.createAccount({ name: 'zap report', email: 'zap-report@example.org', plan: 'business' }));
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  shift = -DAY; // made and clicked yesterday
  for (const source of ['newsletter', 'facebook']) {
    links.push(await client.createLink({ targetUrl: `https://example.org/spring?utm_campaign=spring_sale&utm_source=${source}`, title: `Spring ${source}` }));
  }
  await click(links[0]!.shortUrl, 4);
  await click(links[1]!.shortUrl, 1);
  shift = 0;
  clickDay = (await client.getLinkStats(links[0]!.id)).clicksByDay[0]!.date;
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  appTester = newAppTester();
});

test('the report as line items with its totals beside them', async () => {
  const [result] = await run<Array<Record<string, unknown>>>(appTester, 'searches.campaign_report', {
    authData: authData(sandbox.baseUrl, apiKey),
    inputData: { selectBy: 'campaign', campaign: 'spring_sale', from: clickDay, to: clickDay },
  });
  expect(result).toEqual(expect.objectContaining({ from: clickDay, to: clickDay, days: 1, links: 2, clicks: 5, count: 2 }));
  expect((result!.rows as Array<Record<string, unknown>>).map((row) => [row.date, row.linkId, row.source, row.clicks]).sort()).toEqual(
    [[clickDay, links[0]!.id, 'newsletter', 4], [clickDay, links[1]!.id, 'facebook', 1]].sort(),
  );
});

test('a 1,000-link report in a 25 s step is refused before any statistics request, saying what to narrow', async () => {
  const big = sandbox.createAccount({ name: 'zap big', email: 'zap-big@example.org', plan: 'business' });
  sandbox.seedLinks(big.accountId, 1000, { label: 'bulk' });
  const before = api().length;
  const started = Date.now();
  await expect(run(appTester, 'searches.campaign_report', { authData: authData(sandbox.baseUrl, big.apiKey), inputData: { selectBy: 'all' } })).rejects.toThrow(
    /1000 links of the account.*at most 90 links here.*Narrow it/s,
  );
  expect(Date.now() - started).toBeLessThan(25_000);
  expect(api().slice(before).every((r) => r.path === '/api/v1/links')).toBe(true);
});

test('Clicks Per Day: yesterday once per link, newest first; the same day again brings nothing', async () => {
  const poll = () => run<Array<Record<string, unknown>>>(appTester, 'triggers.clicks_per_day', { ...pollBundle(sandbox.baseUrl, apiKey, 'zap-daily'), inputData: { dailyScope: 'campaign', campaign: 'spring_sale', includeZeroDays: 'false' } });
  const first = await poll();
  expect(first.map((item) => [item.id, item.clicks]).sort()).toEqual([[`${links[0]!.id}:${clickDay}`, 4], [`${links[1]!.id}:${clickDay}`, 1]].sort());
  const before = api().length;
  expect(await poll()).toEqual([]);
  expect(api().length).toBe(before);
});
