/**
 * The built node's lookups on large accounts seeded straight into the sandbox (targets among the oldest):
 * one walk of the account per execution shared by all items, no duplicates, "none" only after the whole
 * account, and By URL / Find reaching the oldest links.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';

import { loadOptionsContext, locator, runNode, type TestCredentials } from './harness';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowSeconds: 60 } });
});

afterAll(async () => {
	await sandbox.close();
});

function account(links: number, label: string): { accountId: string; credentials: TestCredentials } {
	const made = sandbox.createAccount({ name: label, email: `${label}@example.org`, plan: 'business' });
	sandbox.seedLinks(made.accountId, links, { label, endAt: Date.now() - 60_000 });
	return { accountId: made.accountId, credentials: { apiKey: made.apiKey, baseUrl: sandbox.baseUrl } };
}

function requestsSince(from: number) {
	const since = sandbox.requests.slice(from).filter((r) => r.path.startsWith('/api/v1/'));
	return {
		lists: since.filter((r) => r.method === 'GET' && r.path === '/api/v1/links').length,
		posts: since.filter((r) => r.method === 'POST').length,
		all: since.length,
	};
}

const oldestOf = (accountId: string, count: number) =>
	sandbox
		.links(accountId)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.slice(0, count);

describe('Find or Create over many items', () => {
	it('2 500 links: 50 of the oldest rows and 50 new rows, run twice: one walk per execution, 0 duplicates', async () => {
		const { accountId, credentials } = account(2_500, 'n8n2500');
		const oldest = oldestOf(accountId, 50);
		// The sheet: 50 existing targets (written with the UTM field, as the link stores them) and 50 new ones.
		const items: IDataObject[] = [
			...oldest.map((link) => ({ url: link.targetUrl, source: undefined })),
			...Array.from({ length: 50 }, (_, i) => ({ url: `https://example.org/campaign/${i}`, source: 'sheet' })),
		];
		const parameters = (itemIndex: number) => ({
			resource: 'link',
			operation: 'findOrCreate',
			targetUrl: String(items[itemIndex]!.url),
			utm: items[itemIndex]!.source ? { source: String(items[itemIndex]!.source) } : {},
		});

		const start = sandbox.requests.length;
		const first = await runNode({ credentials, items, parameters });
		expect(first.filter((item) => item.json.created === true)).toHaveLength(50);
		expect(first.slice(0, 50).map((item) => item.json.id)).toEqual(oldest.map((link) => link.id));
		// 25 list pages, 50 creates each with its look for twins (one list page: docs/guarantees.md, "Many
		// callers") and the run's one plan-quota pre-flight (GET /me) before its first create.
		expect(requestsSince(start)).toEqual({ lists: 75, posts: 50, all: 126 });

		const rerun = sandbox.requests.length;
		const second = await runNode({ credentials, items, parameters });
		expect(second.filter((item) => item.json.created === true)).toHaveLength(0);
		expect(second.map((item) => item.json.id)).toEqual(first.map((item) => item.json.id));
		expect(second[60]!.json.targetUrl).toBe('https://example.org/campaign/10?utm_source=sheet');
		// 2 550 links: 26 pages, nothing else.
		expect(requestsSince(rerun)).toEqual({ lists: 26, posts: 0, all: 26 });
		expect(sandbox.links(accountId)).toHaveLength(2_550);
	});

	it('10 000 links: 200 rows of the oldest targets find their links with 100 list requests', async () => {
		const { accountId, credentials } = account(10_000, 'n8n10k');
		const oldest = oldestOf(accountId, 200);
		const start = sandbox.requests.length;
		const output = await runNode({
			credentials,
			items: oldest.map((link) => ({ url: link.targetUrl })),
			parameters: (itemIndex) => ({ resource: 'link', operation: 'findOrCreate', targetUrl: oldest[itemIndex]!.targetUrl }),
		});
		expect(output.every((item) => item.json.created === false)).toBe(true);
		expect(requestsSince(start)).toEqual({ lists: 100, posts: 0, all: 100 });
	});

	it('a paused same link is not reused unless "Reuse Paused, Blocked or Expired Links" is on', async () => {
		const { accountId, credentials } = account(300, 'n8npaused');
		const [old] = oldestOf(accountId, 1);
		const [paused] = await runNode({ credentials, parameters: { resource: 'link', operation: 'update', link: locator('id', old!.id), updateFields: { active: false } } });
		expect(paused!.json.active).toBe(false);
		const parameters = { resource: 'link', operation: 'findOrCreate', targetUrl: old!.targetUrl };
		const [reused] = await runNode({ credentials, parameters: { ...parameters, reuseInactive: true } });
		expect(reused!.json).toMatchObject({ id: old!.id, created: false, active: false });
		const [fresh] = await runNode({ credentials, parameters });
		expect(fresh!.json).toMatchObject({ created: true, active: true });
	});
});

describe('Find and By URL reach the oldest links', () => {
	it('Find by target URL, Find by slug and Get by URL on a 2 500-link account', async () => {
		const { accountId, credentials } = account(2_500, 'n8nfind');
		const [oldest, second] = oldestOf(accountId, 2);
		const start = sandbox.requests.length;
		const found = await runNode({ credentials, parameters: { resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl: oldest!.targetUrl } });
		expect(found.map((item) => item.json.id)).toEqual([oldest!.id]);
		const bySlug = await runNode({ credentials, parameters: { resource: 'link', operation: 'find', findBy: 'slug', slug: second!.slug } });
		expect(bySlug.map((item) => item.json.id)).toEqual([second!.id]);
		const [got] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('url', oldest!.shortUrl) } });
		expect(got!.json.id).toBe(oldest!.id);
		// Three executions: each walks the account once (25 pages); Get adds its GET.
		expect(requestsSince(start)).toEqual({ lists: 75, posts: 0, all: 76 });
	});

	it('Get By URL over 100 items of one execution: one walk, then one GET per item', async () => {
		const { accountId, credentials } = account(2_500, 'n8nbyurl');
		const oldest = oldestOf(accountId, 100);
		const start = sandbox.requests.length;
		const output = await runNode({
			credentials,
			items: oldest.map((link) => ({ shortUrl: link.shortUrl })),
			parameters: (itemIndex) => ({ resource: 'link', operation: 'get', link: locator('url', oldest[itemIndex]!.shortUrl) }),
		});
		expect(output.map((item) => item.json.id)).toEqual(oldest.map((link) => link.id));
		expect(requestsSince(start)).toEqual({ lists: 25, posts: 0, all: 125 });
	});

	it('"No link has the short URL" only after the whole account was searched', async () => {
		const { credentials } = account(2_500, 'n8nnone');
		const start = sandbox.requests.length;
		await expect(
			runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('url', `${sandbox.baseUrl}/no-such-slug`) } }),
		).rejects.toMatchObject({ message: expect.stringMatching(/No link of this account has the short URL/) });
		expect(requestsSince(start).lists).toBe(25);
	});
});

describe('the link picker', () => {
	it('its search looks through the whole account, page by page: the oldest link of 2 500 in one call', async () => {
		const { accountId, credentials } = account(2_500, 'n8npicker');
		const [oldest] = oldestOf(accountId, 1);
		const { methods, context } = loadOptionsContext(credentials);
		const found = await methods.searchLinks.call(context, oldest!.slug);
		expect(found.results.map((result) => result.value)).toEqual([oldest!.id]);
		expect(found.paginationToken).toBeUndefined();
	});
});
