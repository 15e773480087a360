/**
 * Report → Campaign Report through the built node's execute(), against the sandbox with real clicks: one
 * item per row with the core's columns (ready for Google Sheets' Append), the form's fields by label in
 * errors, and the CSV file as one more item with the totals and binary data "data".
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { createClient } from '@shortlink/core';
import { click } from '../../../test/support/clicks';

import { runNode, type TestCredentials } from './harness';

let sandbox: Sandbox;
let credentials: TestCredentials;
/** The day the sandbox counted the clicks on (UTC), read back from its statistics. */
let clickDay = '';
const today = () => clickDay;
const made: { id: string; shortUrl: string }[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
	const { apiKey } = sandbox.createAccount({ name: 'n8n report', email: 'n8n-report@example.org', plan: 'business' });
	credentials = { apiKey, baseUrl: sandbox.baseUrl };
	const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
	for (const source of ['newsletter', 'facebook']) {
		made.push(await client.createLink({ targetUrl: `https://example.org/spring?utm_campaign=spring_sale&utm_source=${source}`, title: `Spring ${source}` }));
	}
	await click(made[0]!.shortUrl, 3);
	await click(made[1]!.shortUrl, 2);
	clickDay = (await client.getLinkStats(made[0]!.id)).clicksByDay[0]!.date;
});

afterAll(async () => {
	await sandbox.close();
});

it('one item per link and day with the report columns; per campaign and day adds up', async () => {
	const day = today();
	const perLink = await runNode({ credentials, parameters: { resource: 'report', operation: 'campaign', selectBy: 'campaign', campaign: 'spring_sale', from: day, to: day } });
	expect(perLink.map((item) => item.json)).toEqual(
		expect.arrayContaining([
			{ date: day, shortUrl: made[0]!.shortUrl, title: 'Spring newsletter', targetUrl: expect.stringContaining('utm_source=newsletter'), campaign: 'spring_sale', source: 'newsletter', medium: '', linkId: made[0]!.id, clicks: 3, scans: 0 },
			expect.objectContaining({ linkId: made[1]!.id, clicks: 2 }),
		]),
	);
	expect(perLink).toHaveLength(2);
	expect(perLink[0]!.pairedItem).toEqual({ item: 0 });
	const perCampaign = await runNode({ credentials, parameters: { resource: 'report', operation: 'campaign', selectBy: 'all', shape: 'campaignDay', from: `${day}T00:00:00`, to: day } });
	expect(perCampaign.map((item) => item.json)).toEqual([{ date: day, campaign: 'spring_sale', links: 2, clicks: 5, scans: 0 }]);
});

it('the CSV file comes as one more item with the totals; errors name the field', async () => {
	const day = today();
	const items = await runNode({ credentials, parameters: { resource: 'report', operation: 'campaign', selectBy: 'all', shape: 'campaignTotal', from: day, to: day, options: { csvFile: true } } });
	expect(items).toHaveLength(2);
	expect(items[1]!.json).toEqual(expect.objectContaining({ from: day, to: day, links: 2, clicks: 5, fileName: `campaign-report-${day}-to-${day}.csv` }));
	const csv = Buffer.from(String(items[1]!.binary!.data!.data), 'base64').toString('utf8');
	expect(csv).toBe(`campaign,from,to,links,clicks,scans\r\nspring_sale,${day},${day},2,5,0\r\n`);
	await expect(runNode({ credentials, parameters: { resource: 'report', operation: 'campaign', selectBy: 'campaign', campaign: 'x', from: day, to: '2020-01-01' } })).rejects.toThrow(/From|To/);
});
