/**
 * The built Short Link Trigger's Clicks Per Day event against the sandbox: clicks recorded yesterday (the
 * sandbox's clock set back a day while clicking, through its redirect endpoint) come in the first poll, one
 * item per link with yesterday's clicks; a second poll the same day sends no request; a restart keeping only
 * the static data (as JSON) repeats nothing; per campaign adds up; the manual test leaves the state alone.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';

import { click } from '../../../test/support/clicks';
import { triggerHost, type TestCredentials } from './harness';

const DAY = 86_400_000;
let shift = 0;
let sandbox: Sandbox;
let credentials: TestCredentials;
const links: { id: string; shortUrl: string }[] = [];
const yesterday = () => new Date(Date.now() - DAY).toISOString().slice(0, 10);

beforeAll(async () => {
	sandbox = await startSandbox({ now: () => Date.now() + shift, rateLimit: { limit: 100_000, windowSeconds: 60 } });
	const { apiKey } = sandbox.createAccount({ name: 'n8n daily', email: 'n8n-daily@example.org', plan: 'business' });
	credentials = { apiKey, baseUrl: sandbox.baseUrl };
	const client = createClient({ baseUrl: sandbox.baseUrl, apiKey });
	shift = -DAY; // links made and clicked yesterday
	for (const campaign of ['spring', 'spring', 'autumn']) {
		links.push(await client.createLink({ targetUrl: `https://example.org/${links.length}?utm_campaign=${campaign}`, title: `Daily ${links.length}` }));
	}
	await click(links[0]!.shortUrl, 3);
	await click(links[1]!.shortUrl, 1);
	shift = 0;
});

afterAll(async () => {
	await sandbox.close();
});

it('first poll: yesterday per link; the same day again: nothing and no request; a restart repeats nothing', async () => {
	const host = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'recent', createdWithinDays: 7 });
	const first = await host.poll();
	expect(first?.map((item) => [item.linkId, item.clicks]).sort()).toEqual([[links[0]!.id, 3], [links[1]!.id, 1]].sort());
	expect(first![0]).toEqual(expect.objectContaining({ id: expect.stringMatching(`:${yesterday()}$`), date: yesterday(), campaign: 'spring', shortUrl: expect.any(String), title: expect.any(String) }));
	const sent = host.sent.length;
	expect(await host.poll()).toBeNull();
	expect(host.sent.length).toBe(sent);
	host.staticData.clicksPerDay = JSON.parse(JSON.stringify(host.staticData.clicksPerDay));
	expect(await host.poll()).toBeNull();
});

it('per campaign with days without clicks; the manual test shows yesterday and keeps no state', async () => {
	const host = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'recent', createdWithinDays: 7, per: 'campaign', options: { includeZeroDays: true } });
	expect(await host.poll('manual')).toEqual([
		{ id: `autumn:${yesterday()}`, date: yesterday(), campaign: 'autumn', links: 1, clicks: 0 },
		{ id: `spring:${yesterday()}`, date: yesterday(), campaign: 'spring', links: 2, clicks: 4 },
	]);
	expect(host.staticData.clicksPerDay).toBeUndefined();
	const campaign = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'campaign', campaign: 'autumn', options: { includeZeroDays: true } });
	expect((await campaign.poll())?.map((item) => [item.linkId, item.clicks])).toEqual([[links[2]!.id, 0]]);
});

it('a campaign scope without a campaign is refused by the field\'s label before any request', async () => {
	const host = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'campaign', campaign: '' });
	await expect(host.poll()).rejects.toThrow(/Invalid value/);
	expect(host.sent).toHaveLength(0);
});

it('the manual test honours Include Days Without Clicks; only when that leaves nothing it shows the 0-click rows (the notice says so)', async () => {
	const off = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'recent', createdWithinDays: 7 });
	expect((await off.poll('manual'))?.map((item) => [item.linkId, item.clicks]).sort()).toEqual([[links[0]!.id, 3], [links[1]!.id, 1]].sort());
	const quiet = triggerHost(credentials, { event: 'clicksPerDay', dailyScope: 'campaign', campaign: 'autumn' });
	expect((await quiet.poll('manual'))?.map((item) => [item.linkId, item.clicks])).toEqual([[links[2]!.id, 0]]);
});
