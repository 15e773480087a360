/**
 * Issue 37 in the Zapier app against the sandbox: Preview Campaign Sheet over a line-item list and Create
 * Links from Preview with its review token; the UTM presets kept in the connection; sheet-safe values — a
 * report row and a New Link item whose title starts with "=", "+", "-" or "@" reach "Create Spreadsheet
 * Row" as text, the stored value under `raw`.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { click } from '../../../test/support/clicks';
import { newAppTester, pollBundle, run } from './helpers';

let sandbox: Sandbox;
let account: { accountId: string; apiKey: string };
let auth: { baseUrl: string; apiKey: string; utmPresets: string };
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  account = sandbox.createAccount({ name: 'Zapier sheet', email: 'zapier-sheet@example.org', plan: 'business' });
  auth = { baseUrl: sandbox.baseUrl, apiKey: account.apiKey, utmPresets: 'Paid social: source=facebook, medium=cpc' };
});
afterAll(async () => {
  await sandbox.close();
});

type Step = Record<string, unknown> & { rowResults: Array<Record<string, unknown>> };

test('Preview Campaign Sheet, then Create Links from Preview: line items in, row results out, what was previewed is made', async () => {
  const rows = [
    { targetUrl: 'https://example.org/ad', utmPreset: 'Paid Social', utmCampaign: 'Launch Week' },
    { targetUrl: 'https://example.org/ad', utmSource: 'Facebook', utmMedium: 'CPC', utmCampaign: 'launch-week' },
    { targetUrl: 'https://example.org/ad', utmPreset: 'Newsletter' },
  ];
  const [preview] = await run<Step[]>(newAppTester(), 'searches.preview_sheet', { authData: auth, inputData: { rows } });
  expect(sandbox.links(account.accountId)).toHaveLength(0);
  expect(preview).toMatchObject({ mode: 'preview', rows: 3, willCreate: 1, duplicates: 1, willFail: 1, count: 3 });
  expect(preview!.rowResults.map((r) => r.status)).toEqual(['will create', 'duplicate', 'will fail']);
  expect(preview!.rowResults[0]!.targetUrl).toBe('https://example.org/ad?utm_source=facebook&utm_medium=cpc&utm_campaign=launch_week');
  expect(preview!.rowResults[2]!.reason).toMatch(/^"UTM Preset" is "Newsletter", which is not one of your presets: Paid social/);

  const done = await run<Step>(newAppTester(), 'creates.create_from_preview', { authData: auth, inputData: { rows, reviewToken: preview!.reviewToken } });
  expect(done).toMatchObject({ mode: 'submit', created: 1, duplicates: 1, failed: 1, complete: true, count: 3 });
  expect(done.rowResults.map((r) => r.status)).toEqual(['created', 'duplicate', 'failed']);
  expect(sandbox.links(account.accountId)).toHaveLength(1);

  // A changed list is refused in words, nothing created.
  await expect(run(newAppTester(), 'creates.create_from_preview', { authData: auth, inputData: { rows: rows.slice(0, 2), reviewToken: preview!.reviewToken } })).rejects.toThrow(
    /These rows are not the ones previewed with this \\"Review Token\\", so nothing was created\. The preview had 3 rows; these are 2/,
  );
  expect(sandbox.links(account.accountId)).toHaveLength(1);
});

test('the line-item input is a group of the core\'s columns', () => {
  const app = require('../src') as { searches: Record<string, { operation: { inputFields: Array<{ key: string; children?: Array<{ key: string; label: string }> }> } }> };
  const rows = app.searches.preview_sheet!.operation.inputFields.find((field) => field.key === 'rows')!;
  expect(rows.children!.map((field) => field.key)).toEqual(['targetUrl', 'domain', 'utmPreset', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'slug', 'title']);
  expect(app.searches.preview_sheet!.operation.inputFields.map((field) => field.key)).toEqual(['rows', 'reuseInactive']);
});

test('a report row and a New Link item whose title starts with "=", "+", "-" or "@" reach the spreadsheet step as text', async () => {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: account.apiKey });
  const titles = ['=HYPERLINK("http://evil.example","x")', '+cmd', '-50% sale', '@SUM(A1)'];
  const tester = newAppTester();
  const poll = pollBundle(sandbox.baseUrl, account.apiKey, 'zap-sheet');
  await run(tester, 'triggers.new_link', poll);
  for (const [i, title] of titles.entries()) await click((await client.createLink({ targetUrl: `https://example.org/safe/${i}?utm_campaign=safe`, title })).shortUrl, 1);
  const today = new Date().toISOString().slice(0, 10);
  const [report] = await run<Step[]>(tester, 'searches.campaign_report', { authData: auth, inputData: { selectBy: 'campaign', campaign: 'safe', shape: 'linkTotal', from: today, to: today } });
  expect(report!.rows as unknown as Array<Record<string, unknown>>).toHaveLength(4);
  for (const row of report!.rows as unknown as Array<{ title: string; raw: { title: string } }>) {
    expect(row.title).toBe(`'${row.raw.title}`);
    expect(titles).toContain(row.raw.title);
  }
  const items = await run<Array<{ title: string; raw?: { title: string } }>>(tester, 'triggers.new_link', poll);
  expect(items.map((item) => [item.title, item.raw?.title])).toEqual([...titles].reverse().map((title) => [`'${title}`, title]));
});
