/**
 * The built Short Link Trigger across several polls against the sandbox: first poll sets the mark,
 * new links arrive oldest first exactly once, bursts larger than a page are delivered within the
 * poll's page budget, bursts larger than that budget over several polls, deletions between polls are
 * harmless, and a manual run only shows a sample.
 */
import { createClient, type ShortLinkClient } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';

import { triggerHost, type TestCredentials, type TriggerHost } from './harness';

let sandbox: Sandbox;
let credentials: TestCredentials;
let api: ShortLinkClient;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
	credentials = { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl };
	api = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
});

afterAll(async () => {
	await sandbox.close();
});

/** Creates links one after another (so createdAt grows) and returns their ids in creation order. */
async function createLinks(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		counter++;
		const link = await api.createLink({ targetUrl: `https://example.org/trigger/${counter}` });
		ids.push(link.id);
	}
	return ids;
}

/**
 * Polls (at most 20 times) until `expected` links arrived, then once more, which must be quiet. Each poll
 * must stay within its page budget; a poll that spent its budget may return nothing and go on next time.
 */
async function drain(host: TriggerHost, maxPages: number, expected: number): Promise<{ ids: string[]; polls: number }> {
	const ids: string[] = [];
	let polls = 0;
	while (ids.length < expected && polls < 20) {
		const before = host.sent.length;
		const links = await host.poll();
		polls++;
		expect(host.sent.length - before).toBeLessThanOrEqual(maxPages);
		ids.push(...(links ?? []).map((link: IDataObject) => String(link.id)));
	}
	expect(await host.poll()).toBeNull();
	return { ids, polls };
}

describe('Short Link Trigger (New Link)', () => {
	it('first poll only sets the mark; later polls return new links oldest first, once', async () => {
		const host = triggerHost(credentials);
		expect(await host.poll()).toBeNull();
		expect(host.staticData.newLinks).toBeDefined();

		const ids = await createLinks(3);
		const links = await host.poll();
		expect(links?.map((link) => String(link.id))).toEqual(ids);
		expect(links?.[0]).toEqual(expect.objectContaining({ targetUrl: expect.stringContaining('/trigger/'), blocked: false }));

		const before = host.sent.length;
		expect(await host.poll()).toBeNull();
		expect(host.sent.length - before).toBe(1);
	});

	it('a burst larger than one page arrives complete and in order, each poll within maxPages', async () => {
		const host = triggerHost(credentials, { options: { maxPages: 2 } });
		expect(await host.poll()).toBeNull();
		const burst = await createLinks(150);
		const { ids } = await drain(host, 2, burst.length);
		expect(ids).toEqual(burst);
	});

	it('a burst larger than one poll\'s budget is spread over several polls, each link once, in order', async () => {
		// maxPages 2 × 100 links per page = 200 links per poll at most; 250 need more than one poll.
		const host = triggerHost(credentials, { options: { maxPages: 2 } });
		expect(await host.poll()).toBeNull();
		const burst = await createLinks(250);

		// The first poll meets only unhandled links within its budget: it emits nothing rather than leave a hole.
		const before = host.sent.length;
		expect(await host.poll()).toBeNull();
		expect(host.sent.length - before).toBe(2);

		// Links that arrive while the backlog is being delivered come after it.
		const later = await createLinks(20);
		const { ids, polls } = await drain(host, 2, burst.length + later.length);
		expect(polls).toBeGreaterThan(1);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual([...burst, ...later]);
	});

	it('links deleted between polls are skipped, including the one the mark points at', async () => {
		const host = triggerHost(credentials);
		const [marked] = await createLinks(1);
		expect(await host.poll()).toBeNull();

		const [a, b, c] = await createLinks(3);
		await api.deleteLink(b);
		await api.deleteLink(marked);
		expect((await host.poll())?.map((link) => String(link.id))).toEqual([a, c]);

		await api.deleteLink(c);
		const [d] = await createLinks(1);
		expect((await host.poll())?.map((link) => String(link.id))).toEqual([d]);
	});

	it('a manual run returns the newest link as a sample and does not move the mark', async () => {
		const host = triggerHost(credentials);
		expect(await host.poll()).toBeNull();
		const saved = structuredClone(host.staticData);

		const [newest] = (await createLinks(2)).slice(-1);
		const sample = await host.poll('manual');
		expect(sample?.map((link) => String(link.id))).toEqual([newest]);
		expect(host.staticData).toEqual(saved);

		// The scheduled poll still sees both links as new.
		expect(await host.poll()).toHaveLength(2);
	});
});
