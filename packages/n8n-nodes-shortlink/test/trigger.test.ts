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
		expect(host.staticData.newLink).toBeDefined();

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

describe('Short Link Trigger, second version', () => {
	/** A fresh account with `existing` links seeded straight into the sandbox, and a host on it. */
	function account(existing = 0, parameters: Record<string, unknown> = {}) {
		const { accountId, apiKey } = sandbox.createAccount({ name: 'Trigger', email: `t${++counter}@example.com`, plan: 'business' });
		if (existing > 0) sandbox.seedLinks(accountId, existing, { label: `pre${counter}` });
		const creds = { apiKey, baseUrl: sandbox.baseUrl };
		const client = createClient(creds);
		return { accountId, creds, client, host: triggerHost(creds, { event: 'newLink', ...parameters }) };
	}

	it('the first poll asks /me once and reads one page; a quiet poll is one request', async () => {
		const { host } = account(30);
		expect(await host.poll()).toBeNull();
		expect(host.sent.map((request) => new URL(String(request.url)).pathname)).toEqual(['/api/v1/me', '/api/v1/links']);
		const before = host.sent.length;
		expect(await host.poll()).toBeNull();
		expect(host.sent.length - before).toBe(1);
	});

	it('a backlog larger than one poll comes in batches of Max Links per Poll, oldest first, each once, the first batch in the first poll', async () => {
		const { accountId, host } = account(10, { options: { maxLinks: 400 } });
		expect(await host.poll()).toBeNull();
		const backlog = sandbox.seedLinks(accountId, 2500, { label: `backlog${counter}`, endAt: Date.now() + 60_000 }).map((link) => link.id);
		const batches: string[][] = [];
		for (let i = 0; i < 10 && batches.flat().length < backlog.length; i++) {
			batches.push(((await host.poll()) ?? []).map((link) => String(link.id)));
		}
		expect(batches[0]).toEqual(backlog.slice(0, 400));
		expect(batches.map((batch) => batch.length)).toEqual([400, 400, 400, 400, 400, 400, 100]);
		expect(batches.flat()).toEqual(backlog);
		expect(await host.poll()).toBeNull();
	});

	it('two overlapping polls: the second hands out nothing at once and says why; every link once', async () => {
		const { client, host } = account(5);
		expect(await host.poll()).toBeNull();
		const made: string[] = [];
		for (let i = 0; i < 3; i++) made.push((await client.createLink({ targetUrl: `https://example.org/overlap/${i}` })).id);
		const [one, two] = await Promise.all([host.poll(), host.poll()]);
		expect(one?.map((link) => String(link.id))).toEqual(made);
		expect(two).toBeNull();
		expect(host.logs.join('\n')).toMatch(/previous poll of this trigger still runs/);
		expect(await host.poll()).toBeNull();
	});

	it('another credential (another account) starts over at its newest link instead of replaying it', async () => {
		const first = account(5);
		const second = account(300);
		expect(await first.host.poll()).toBeNull();
		first.host.credentials = second.creds;
		expect(await first.host.poll()).toBeNull();
		expect(first.host.logs.join('\n')).toMatch(/another account/);
		const made = (await second.client.createLink({ targetUrl: 'https://example.org/after-switch' })).id;
		expect((await first.host.poll())?.map((link) => String(link.id))).toEqual([made]);
	});

	it('"Links Created Since a Date" delivers the links since that wall time in the workflow time zone, oldest first', async () => {
		const { accountId, creds } = account();
		const base = Date.parse('2026-02-01T08:00:00.000Z');
		sandbox.seedLinks(accountId, 5, { label: `old${counter}`, endAt: base - 60_000, spacingMs: 1000 });
		const recent = sandbox.seedLinks(accountId, 5, { label: `new${counter}`, endAt: base + 4_000, spacingMs: 1000 }).map((link) => link.id);
		// 09:00 in Berlin (winter, UTC+1) is 08:00 UTC.
		const host = triggerHost(creds, { event: 'newLink', startFrom: 'since', since: '2026-02-01T09:00:00' }, { timezone: 'Europe/Berlin' });
		expect((await host.poll())?.map((link) => String(link.id))).toEqual(recent);
		expect(await host.poll()).toBeNull();
	});

	it('an unreadable "Created Since" is named, no request is sent', async () => {
		const { creds } = account();
		const host = triggerHost(creds, { event: 'newLink', startFrom: 'since', since: '31/12/2026' });
		await expect(host.poll()).rejects.toMatchObject({ message: 'Invalid value in the field "Created Since"' });
		expect(host.sent).toEqual([]);
	});

	it('a manual test on an empty account explains why there is no sample', async () => {
		const { host } = account();
		const error = (await host.poll('manual').catch((e: unknown) => e)) as { message: string; description: string };
		expect(error.message).toBe('No link in this account yet, so there is no sample to show');
		expect(error.description).toMatch(/Create a short link .* test again/);
		expect(host.staticData).toEqual({});
	});

	it('a state kept by the first version goes on without replaying anything', async () => {
		const { accountId, client, creds } = account(3);
		const [newest] = sandbox.links(accountId);
		const host = triggerHost(creds, { event: 'newLink' });
		host.staticData.newLink = { version: 1, mark: { createdAt: newest!.createdAt, ids: [newest!.id] } };
		const made = (await client.createLink({ targetUrl: 'https://example.org/after-upgrade' })).id;
		expect((await host.poll())?.map((link) => String(link.id))).toEqual([made]);
		expect(host.staticData.newLink).toMatchObject({ version: 2, owner: { account: accountId } });
	});

	it('a poll bounds its own time: on a slow service it stops starting requests and goes on next time', async () => {
		const { accountId, host } = account(10, { options: { maxLinks: 50 } });
		expect(await host.poll()).toBeNull();
		const backlog = sandbox.seedLinks(accountId, 1000, { label: `slow${counter}`, endAt: Date.now() + 60_000 }).map((link) => link.id);
		sandbox.setFaults({ latencyMs: 150 });
		try {
			// n8n 2.x says this poll may take 1 s: it starts no request after 0.6 s.
			const slowHost = triggerHost(host.credentials, { event: 'newLink', options: { maxLinks: 50 } }, { pollBudgetMs: 1000 });
			slowHost.staticData = host.staticData;
			const started = Date.now();
			expect(await slowHost.poll()).toBeNull();
			expect(Date.now() - started).toBeLessThan(5000);
			expect(slowHost.sent.length).toBeLessThan(11);
			expect((slowHost.staticData.newLink as { catchUp?: { walkCursor?: string } }).catchUp?.walkCursor).toBeDefined();
		} finally {
			sandbox.setFaults(undefined);
		}
		const ids: string[] = [];
		for (let i = 0; i < 40 && ids.length < backlog.length; i++) ids.push(...((await host.poll()) ?? []).map((link) => String(link.id)));
		expect(ids).toEqual(backlog);
	});
});
