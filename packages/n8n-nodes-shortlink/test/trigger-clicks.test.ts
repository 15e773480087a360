/**
 * The built Short Link Trigger's Link Clicks event across polls against the sandbox, with real clicks
 * (requests to the sandbox's redirect endpoint): milestones reached between polls (several at once), new
 * clicks, chosen links (one deleted), a switched credential, a restart that keeps only the workflow's
 * static data (as JSON), bad input named by its label before any request, and the manual test's sample.
 */
import { createClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { click } from '../../../test/support/clicks';
import { triggerHost, type TestCredentials } from './harness';

let sandbox: Sandbox;
let accounts = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});

afterAll(async () => {
	await sandbox.close();
});

function account(): { id: string; credentials: TestCredentials } {
	const { accountId, apiKey } = sandbox.createAccount({ name: `n8n clicks ${++accounts}`, email: `n8n-clicks${accounts}@example.org`, plan: 'business' });
	return { id: accountId, credentials: { apiKey, baseUrl: sandbox.baseUrl } };
}

const milestones = (custom: string, more: INodeParameters = {}): INodeParameters => ({
	event: 'linkClicks',
	clicksMode: 'milestones',
	milestones: custom,
	...more,
});

const keys = (items: IDataObject[] | null) => (items ?? []).map((item) => `${item.id}:${item.milestone ?? item.clicks}`).sort();

describe('Short Link Trigger (Link Clicks)', () => {
	it('milestones reached between polls come once each, several at once, with the full link and the click fields', async () => {
		const a = account();
		const [one, two] = sandbox.seedLinks(a.id, 2, { label: 'n8n-ms' });
		const host = triggerHost(a.credentials, milestones('2, 5'));
		expect(await host.poll()).toBeNull();
		expect(host.staticData.linkClicks).toBeDefined();

		await click(one!.shortUrl, 2);
		await click(two!.shortUrl, 5);
		const items = await host.poll();
		expect(keys(items)).toEqual([`${one!.id}:2`, `${two!.id}:2`, `${two!.id}:5`].sort());
		expect(items?.find((item) => item.id === one!.id)).toEqual({
			...one,
			clicks: 2,
			clicksBefore: 0,
			newClicks: 2,
			milestone: 2,
			eventId: expect.stringMatching(new RegExp(`^${one!.id}@\\d+:m2$`)),
		});
		expect(await host.poll()).toBeNull();

		// A restart keeps only the static data (JSON): nothing comes twice.
		const restarted = triggerHost(a.credentials, milestones('2, 5'));
		restarted.staticData = JSON.parse(JSON.stringify(host.staticData)) as IDataObject;
		expect(await restarted.poll()).toBeNull();
		await click(one!.shortUrl, 3);
		expect(keys(await restarted.poll())).toEqual([`${one!.id}:5`]);
	});

	it('new clicks: one item per link whose count grew', async () => {
		const a = account();
		const [one, two] = sandbox.seedLinks(a.id, 2, { label: 'n8n-nc' });
		const host = triggerHost(a.credentials, { event: 'linkClicks', clicksMode: 'newClicks' });
		expect(await host.poll()).toBeNull();
		await click(two!.shortUrl, 3);
		const items = await host.poll();
		expect(items).toEqual([expect.objectContaining({ id: two!.id, clicksBefore: 0, clicks: 3, newClicks: 3 })]);
		expect(items?.[0]).not.toHaveProperty('milestone');
		void one;
	});

	it('chosen links: only those, one request each; a deleted one is logged and the rest go on', async () => {
		const a = account();
		const links = sandbox.seedLinks(a.id, 3, { label: 'n8n-pick' });
		const api = createClient({ baseUrl: sandbox.baseUrl, apiKey: a.credentials.apiKey });
		const host = triggerHost(a.credentials, milestones('1', { clicksScope: 'chosen', linkIds: `${links[0]!.id}, ${links[1]!.id}` }));
		expect(await host.poll()).toBeNull();
		await click(links[0]!.shortUrl, 1);
		await click(links[2]!.shortUrl, 1); // not chosen
		await api.deleteLink(links[1]!.id);
		const before = host.sent.length;
		expect(keys(await host.poll())).toEqual([`${links[0]!.id}:1`]);
		expect(host.sent.length - before).toBe(2);
		expect(host.logs.join('\n')).toContain(`The chosen link ${links[1]!.id} no longer exists`);
	});

	it('a credential switched to another account starts over without firing that account\'s clicks', async () => {
		const a = account();
		const b = account();
		const [lb] = sandbox.seedLinks(b.id, 1, { label: 'n8n-sw' });
		await click(lb!.shortUrl, 3);
		const host = triggerHost(a.credentials, milestones('1, 2'));
		expect(await host.poll()).toBeNull();
		host.credentials = b.credentials;
		expect(await host.poll()).toBeNull();
		expect(host.logs.join('\n')).toContain('belong to another account');
		await click(lb!.shortUrl, 1);
		expect(await host.poll()).toBeNull(); // 4 clicks: no milestone left below it
		expect(JSON.stringify(host.staticData)).not.toContain(b.credentials.apiKey);
	});

	it('bad input is refused by the field\'s label before any request', async () => {
		const a = account();
		const host = triggerHost(a.credentials, milestones('100, 1,000'));
		await expect(host.poll()).rejects.toMatchObject({
			message: 'Invalid value in the field "Milestones"',
			description: expect.stringContaining('"000" is not a whole number above 0'),
		});
		const none = triggerHost(a.credentials, milestones(''));
		await expect(none.poll()).rejects.toMatchObject({ message: 'Invalid value in the field "Milestones"' });
		const days = triggerHost(a.credentials, { event: 'linkClicks', clicksMode: 'newClicks', createdWithinDays: 0 });
		await expect(days.poll()).rejects.toMatchObject({ message: 'Invalid value in the field "Created Within (Days)"', description: expect.stringMatching(/^"Created Within \(Days\)" must be a whole number from 1 to 3650/) });
		const chosen = triggerHost(a.credentials, { event: 'linkClicks', clicksMode: 'newClicks', clicksScope: 'chosen' });
		await expect(chosen.poll()).rejects.toMatchObject({ message: 'Invalid value in the field "Links"' });
		expect([host, none, days, chosen].every((h) => h.sent.length === 0)).toBe(true);
	});

	it('the manual test shows a sample item and leaves the stored counts alone', async () => {
		const a = account();
		const [link] = sandbox.seedLinks(a.id, 1, { label: 'n8n-sample' });
		await click(link!.shortUrl, 2);
		const host = triggerHost(a.credentials, milestones('100'));
		expect(await host.poll()).toBeNull();
		const saved = JSON.stringify(host.staticData);
		expect(await host.poll('manual')).toEqual([expect.objectContaining({ id: link!.id, clicksBefore: 2, clicks: 2, newClicks: 0, milestone: 100 })]);
		expect(JSON.stringify(host.staticData)).toBe(saved);
	});
});
