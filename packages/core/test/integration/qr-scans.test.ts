/**
 * Scans told from clicks (issue 37) against the sandbox: Find or Create with "Also Make a QR Code" finds or
 * makes the link's QR sibling (the same target with utm_medium=qr) and draws its code; visits of the code
 * (decoded from the PNG, sent as scans the sandbox labels "qr") appear as the link's scans in the Campaign
 * Report, its other visits as clicks — also when the report's medium leaves the sibling out, and a rerun
 * makes no second sibling. The sandbox's own referrer labels are the referee.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { click, scan } from '../../../../test/support/clicks';
import { decodePng } from '../qr-code/decode';

let sandbox: Sandbox;
let client: ShortLinkClient;
let accountId: string;
const report = operationByKey('report.campaign');
const findOrCreate = operationByKey('link.findOrCreate');
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
  const made = sandbox.createAccount({ name: 'scans', email: 'scans@example.org', plan: 'business' });
  accountId = made.accountId;
  client = createClient({ baseUrl: sandbox.baseUrl, apiKey: made.apiKey });
});
afterAll(async () => {
  await sandbox?.close();
});

test('the flyer\'s scans and the newsletter\'s clicks come apart in the report, and the sandbox agrees', async () => {
  const values = { targetUrl: 'https://example.org/spring', utmSource: 'Newsletter', utmMedium: 'email', utmCampaign: 'Spring Sale', title: 'Spring', alsoQrCode: true };
  const first = await runOperation(findOrCreate, client, values);
  const [record] = first.records;
  expect(record).toMatchObject({ created: true, qrLinkCreated: true, targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale' });
  const sibling = sandbox.links(accountId).find((link) => link.id === record!.qrLinkId)!;
  expect(sibling).toMatchObject({ targetUrl: 'https://example.org/spring?utm_source=newsletter&utm_campaign=spring_sale&utm_medium=qr', title: 'Spring (QR code)' });
  // The printed code opens the sibling: what a phone reads from the image.
  const coded = decodePng(first.files![0]!.data)!;
  expect(coded).toBe(sibling.shortUrl);
  expect(first.files![0]!.fileName).toBe(`${String(record!.slug)}.png`);

  // A rerun finds both links: no second sibling.
  const again = await runOperation(findOrCreate, client, values);
  expect(again.records[0]).toMatchObject({ id: record!.id, created: false, qrLinkId: record!.qrLinkId, qrLinkCreated: false });
  expect(sandbox.links(accountId)).toHaveLength(2);

  await scan(coded, 3);
  await click(String(record!.shortUrl), 5);

  const range = { from: today(), to: today() };
  // A report of the email medium: the sibling (medium qr) is brought in and folded into its link's row.
  const perLink = await runOperation(report, client, { selectBy: 'campaign', campaign: 'spring_sale', medium: 'email', shape: 'linkTotal', ...range });
  expect(perLink.records).toEqual([expect.objectContaining({ linkId: String(record!.id), clicks: 5, scans: 3 })]);
  expect(perLink.summary).toMatchObject({ links: 1, clicks: 5, scans: 3 });
  const perCampaign = await runOperation(report, client, { selectBy: 'all', shape: 'campaignTotal', ...range });
  expect(perCampaign.records).toEqual([expect.objectContaining({ campaign: 'spring_sale', links: 1, clicks: 5, scans: 3 })]);

  // The referee: the sandbox labelled exactly the sibling's visits as QR visits.
  const siblingStats = await client.getLinkStats(String(sibling.id));
  const linkStats = await client.getLinkStats(String(record!.id));
  expect(siblingStats.topReferrers).toEqual([{ label: 'qr', clicks: 3 }]);
  expect(linkStats.topReferrers.find((entry) => entry.label === 'qr')).toBeUndefined();

  // The sibling alone (its link not in the report): all its visits are scans.
  const alone = await runOperation(report, client, { selectBy: 'chosen', links: String(sibling.id), shape: 'linkTotal', ...range });
  expect(alone.records).toEqual([expect.objectContaining({ linkId: String(sibling.id), medium: 'qr', clicks: 0, scans: 3 })]);
});

test('with "Count QR Scans Apart" off, the code opens the link itself and no sibling is made', async () => {
  const result = await runOperation(findOrCreate, client, { targetUrl: 'https://example.org/poster', alsoQrCode: true, qrScansApart: false });
  expect(decodePng(result.files![0]!.data)).toBe(result.records[0]!.shortUrl);
  expect(result.records[0]!.qrLinkId).toBeUndefined();
  expect(sandbox.links(accountId).filter((link) => link.targetUrl.startsWith('https://example.org/poster'))).toHaveLength(1);
});
