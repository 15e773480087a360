/**
 * Campaign Report against the sandbox with real clicks: the sandbox runs on a clock the test moves, so
 * clicks through its redirect endpoint land on past days. The report's numbers equal the service's stats,
 * D days × L links rows, campaigns recognised from the stored target's UTM tags (encoded or not, capitals
 * kept apart), the CSV file, and the cost: one list walk plus one stats request per link.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient, InputError, NotFoundError, type ShortLinkClient } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { click } from '../../../../test/support/clicks';

const DAY = 86_400_000;
let clock = Date.parse('2026-03-01T10:00:00Z');
let sandbox: Sandbox;
let client: ShortLinkClient;
const report = operationByKey('report.campaign');
const api = () => sandbox.requests.filter((r) => r.path.startsWith('/api/v1/'));

interface Made {
  id: string;
  shortUrl: string;
}
const made: Record<string, Made> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, rateLimit: { limit: 100_000, windowSeconds: 60 } });
  const { apiKey } = sandbox.createAccount({ name: 'reports', email: 'reports@example.org', plan: 'business' });
  client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
  const targets: Record<string, string> = {
    mail: 'https://example.org/spring?utm_campaign=spring_sale&utm_source=newsletter&utm_medium=email',
    social: 'https://example.org/spring?utm_medium=social&utm_source=facebook&utm_campaign=spring%5Fsale',
    other: 'https://example.org/spring?utm_campaign=Spring_Sale&utm_source=newsletter',
    none: 'https://example.org/about',
  };
  for (const [name, targetUrl] of Object.entries(targets)) {
    const link = await client.createLink({ targetUrl, title: `Link ${name}` });
    made[name] = { id: link.id, shortUrl: link.shortUrl };
  }
  // Clicks on 2026-03-01, 03 and 04 (02 stays empty); "now" ends on 2026-03-06 10:00 UTC.
  const plan: [number, string, number][] = [
    [0, 'mail', 3], [0, 'social', 1], [0, 'other', 2],
    [2, 'mail', 2], [2, 'none', 5],
    [3, 'social', 4], [3, 'mail', 1],
    [5, 'mail', 7], // today: not a complete day, outside the default range
  ];
  const start = clock;
  for (const [day, name, times] of plan) {
    clock = start + day * DAY;
    await click(made[name]!.shortUrl, times);
  }
});
afterAll(async () => {
  await sandbox?.close();
});

const sumOfStats = async (id: string, from: string, to: string) =>
  (await client.getLinkStats(id)).clicksByDay.filter((d) => d.date >= from && d.date <= to).reduce((t, d) => t + d.clicks, 0);

test('per link and day: every day of the default range (last 7 complete UTC days), numbers equal the stats', async () => {
  const before = api().length;
  const result = await runOperation(report, client, { selectBy: 'campaign', campaign: 'spring_sale' }, { now: () => clock });
  expect(api().length - before).toBe(1 + 2); // one list page, one stats request per link
  expect(result.summary).toEqual({ from: '2026-02-27', to: '2026-03-05', days: 7, links: 2, campaigns: 1, rows: 14, clicks: 11, scans: 0 });
  expect(result.records).toHaveLength(7 * 2);
  expect(result.records.map((r) => r.date)).toEqual(['2026-02-27', '2026-02-27', '2026-02-28', '2026-02-28', '2026-03-01', '2026-03-01', '2026-03-02', '2026-03-02', '2026-03-03', '2026-03-03', '2026-03-04', '2026-03-04', '2026-03-05', '2026-03-05']);
  expect(Object.keys(result.records[0]!)).toEqual(['date', 'shortUrl', 'title', 'targetUrl', 'campaign', 'source', 'medium', 'linkId', 'clicks', 'scans']);
  for (const name of ['mail', 'social']) {
    const mine = result.records.filter((r) => r.linkId === made[name]!.id);
    expect(mine.reduce((t, r) => t + (r.clicks as number), 0)).toBe(await sumOfStats(made[name]!.id, '2026-02-27', '2026-03-05'));
  }
  expect(result.records.find((r) => r.linkId === made.social!.id && r.date === '2026-03-04')).toEqual(
    expect.objectContaining({ shortUrl: made.social!.shortUrl, title: 'Link social', campaign: 'spring_sale', source: 'facebook', medium: 'social', clicks: 4 }),
  );
  expect(result.records.find((r) => r.linkId === made.mail!.id && r.date === '2026-03-02')!.clicks).toBe(0);
  expect(result.files).toBeUndefined();
});

test('per campaign and day, campaign totals, link totals; source and medium narrow; capitals make another campaign', async () => {
  const byDay = await runOperation(report, client, { selectBy: 'created', createdFrom: '2026-03-01', shape: 'campaignDay', from: '2026-03-01', to: '2026-03-04' }, { now: () => clock });
  expect(byDay.records).toHaveLength(4 * 3);
  expect(byDay.records.filter((r) => r.campaign === 'spring_sale').map((r) => r.clicks)).toEqual([4, 0, 2, 5]);
  expect(byDay.records.filter((r) => r.campaign === 'Spring_Sale').map((r) => r.clicks)).toEqual([2, 0, 0, 0]);
  expect(byDay.records.filter((r) => r.campaign === '(no campaign)').map((r) => r.clicks)).toEqual([0, 0, 5, 0]);

  const totals = await runOperation(report, client, { selectBy: 'all', shape: 'campaignTotal', from: '2026-03-01', to: '2026-03-06' }, { now: () => clock });
  expect(totals.records).toEqual([
    { campaign: 'Spring_Sale', from: '2026-03-01', to: '2026-03-06', links: 1, clicks: 2, scans: 0 },
    { campaign: 'spring_sale', from: '2026-03-01', to: '2026-03-06', links: 2, clicks: 18, scans: 0 },
    { campaign: '(no campaign)', from: '2026-03-01', to: '2026-03-06', links: 1, clicks: 5, scans: 0 },
  ]);
  let all = 0;
  for (const m of Object.values(made)) all += await sumOfStats(m.id, '2026-03-01', '2026-03-06');
  expect(totals.summary!.clicks).toBe(all);

  const onDomain = await runOperation(report, client, { selectBy: 'domain', shape: 'campaignTotal', from: '2026-03-01', to: '2026-03-06' }, { now: () => clock });
  expect(onDomain.records).toEqual(totals.records);
  await expect(runOperation(report, client, { selectBy: 'domain', domain: 'go.example.net', shape: 'campaignTotal' }, { now: () => clock })).resolves.toEqual(expect.objectContaining({ records: [] }));

  const narrowed = await runOperation(report, client, { selectBy: 'campaign', campaign: 'spring_sale', source: 'newsletter', medium: 'email', shape: 'linkTotal' }, { now: () => clock });
  expect(narrowed.records).toEqual([expect.objectContaining({ linkId: made.mail!.id, clicks: 6, from: '2026-02-27', to: '2026-03-05' })]);
});

test('chosen links by ID and short URL, in the order given, with a CSV file of the same table', async () => {
  const result = await runOperation(report, client, { selectBy: 'chosen', links: `${made.none!.shortUrl}\n${made.other!.id}`, shape: 'linkTotal', from: '2026-03-01', to: '2026-03-03', csvFile: true }, { now: () => clock });
  expect(result.records.map((r) => [r.linkId, r.clicks])).toEqual([[made.none!.id, 5], [made.other!.id, 2]]);
  const csv = new TextDecoder().decode(result.files![0]!.data);
  expect(result.files![0]).toEqual(expect.objectContaining({ fileName: 'campaign-report-2026-03-01-to-2026-03-03.csv', mimeType: 'text/csv' }));
  expect(csv.split('\r\n')[0]).toBe('shortUrl,title,targetUrl,campaign,source,medium,linkId,from,to,clicks,scans');
  expect(csv.split('\r\n')[1]).toBe(`${made.none!.shortUrl},Link none,https://example.org/about,,,,${made.none!.id},2026-03-01,2026-03-03,5,0`);
});

test('breakdown: all-time top lists summed, said to be all time', async () => {
  const result = await runOperation(report, client, { selectBy: 'campaign', campaign: 'spring_sale', shape: 'breakdown', breakdown: 'device', from: '2026-03-01', to: '2026-03-01' }, { now: () => clock });
  const allTime = (await client.getLinkStats(made.mail!.id)).totalClicks + (await client.getLinkStats(made.social!.id)).totalClicks;
  expect(result.records.reduce((t, r) => t + (r.clicks as number), 0)).toBe(allTime);
  expect(result.records.every((r) => r.period === 'all time')).toBe(true);
  expect(result.summary).toEqual(expect.objectContaining({ breakdownPeriod: 'all time', allTimeClicks: allTime, clicks: 4 }));
});

test('refusals: unknown chosen links, an empty campaign, and a time-limited step over its request budget', async () => {
  await expect(runOperation(report, client, { selectBy: 'chosen', links: '999999' }, { now: () => clock })).rejects.toThrow(NotFoundError);
  await expect(runOperation(report, client, { selectBy: 'campaign' }, { now: () => clock })).rejects.toThrow(/"Campaign" is required/);
  const big = sandbox.createAccount({ name: 'big', email: 'big@example.org', plan: 'business' });
  sandbox.seedLinks(big.accountId, 150, { label: 'bulk' });
  const bigClient = createClient({ baseUrl: sandbox.baseUrl, apiKey: big.apiKey });
  const before = api().length;
  const refused = runOperation(report, bigClient, { selectBy: 'domain' }, { now: () => clock, timeLimitMs: 25_000 });
  await expect(refused).rejects.toThrow(InputError);
  await expect(runOperation(report, bigClient, { selectBy: 'domain' }, { now: () => clock, timeLimitMs: 25_000 })).rejects.toThrow(/150 links on the default domain.*at most 98 links here.*Narrow it/);
  expect(api().length - before).toBe(2 * 2); // the list walks only: no statistics were read
});
