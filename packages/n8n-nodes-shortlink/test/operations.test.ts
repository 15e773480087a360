/**
 * Every operation of the built Short Link node through execute(), over real HTTP against the sandbox,
 * with the request options n8n would receive and the credential applied the way n8n applies it.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject } from 'n8n-workflow';

import { loadOptionsContext, locator, runNode, type SentRequest, type TestCredentials } from './harness';

let sandbox: Sandbox;
let credentials: TestCredentials;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
	credentials = { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl };
});

afterAll(async () => {
	await sandbox.close();
});

async function createOne(parameters: IDataObject): Promise<IDataObject> {
	const [item] = await runNode({ credentials, parameters: { resource: 'link', operation: 'create', ...parameters } });
	return item.json;
}

describe('Link', () => {
	it('Create sends n8n-shaped options, applies UTM with the core builder and returns the nine fields', async () => {
		const sent: SentRequest[] = [];
		const output = await runNode({
			credentials,
			sent,
			parameters: {
				resource: 'link',
				operation: 'create',
				targetUrl: 'https://example.org/summer?ref=home',
				additionalFields: { slug: 'summer-2026', title: 'Summer' },
				utm: { source: 'newsletter', medium: 'email', campaign: 'summer sale' },
			},
		});
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		const link = output[0].json;
		expect(Object.keys(link).sort()).toEqual(
			['active', 'clicks', 'createdAt', 'domain', 'id', 'shortUrl', 'slug', 'targetUrl', 'title'].sort(),
		);
		const target = new URL(String(link.targetUrl));
		expect(target.searchParams.get('ref')).toBe('home');
		expect(target.searchParams.get('utm_source')).toBe('newsletter');
		expect(target.searchParams.get('utm_medium')).toBe('email');
		expect(target.searchParams.get('utm_campaign')).toBe('summer sale');
		expect(link).toMatchObject({ slug: 'summer-2026', title: 'Summer', domain: null, active: true, clicks: 0 });

		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({
			method: 'POST',
			url: `${sandbox.baseUrl}/api/v1/links`,
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		});
		expect(sent[0].headers?.Authorization).toBe(`Bearer ${sandbox.apiKey}`);
	});

	it('Create on a custom domain chosen in the domain locator', async () => {
		const link = await createOne({
			targetUrl: 'https://example.org/domain-test',
			domain: locator('list', 'go.example.org'),
		});
		expect(link.domain).toBe('go.example.org');
		expect(String(link.shortUrl)).toMatch(/^https?:\/\/go\.example\.org\//);
	});

	it('Get by ID, by URL (short URL resolved) and from the list value', async () => {
		const created = await createOne({ targetUrl: 'https://example.org/get-me', additionalFields: { slug: 'get-me' } });
		for (const link of [locator('id', String(created.id)), locator('url', String(created.shortUrl)), locator('list', String(created.id))]) {
			const [item] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link } });
			expect(item.json).toMatchObject({ id: created.id, slug: 'get-me', blocked: false, hasPassword: false, expiresAt: null });
			expect(Object.keys(item.json)).toHaveLength(12);
		}
	});

	it('By URL tells the same slug on the default and on a custom domain apart (resolved by the core)', async () => {
		const onDefault = await createOne({ targetUrl: 'https://example.org/twin-a', additionalFields: { slug: 'twin' } });
		const onCustom = await createOne({
			targetUrl: 'https://example.org/twin-b',
			additionalFields: { slug: 'twin' },
			domain: locator('list', 'go.example.org'),
		});
		const urls: Array<[string, unknown]> = [
			[String(onDefault.shortUrl), onDefault.id],
			[String(onCustom.shortUrl), onCustom.id],
			['HTTPS://Go.Example.org/twin/', onCustom.id],
		];
		for (const [url, id] of urls) {
			const [item] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('url', url) } });
			expect(item.json.id).toBe(id);
		}
	});

	it('Get Many returns the limit (default 50) newest first, or every link with Return All', async () => {
		const extra = 60;
		await runNode({
			credentials,
			items: Array.from({ length: extra }, (_, i) => ({ url: `https://example.org/many/${i}` })),
			parameters: (i) => ({ resource: 'link', operation: 'create', targetUrl: `https://example.org/many/${i}` }),
		});
		const total = sandbox.links(sandbox.demoAccountId).length;
		expect(total).toBeGreaterThan(50);

		const limited = await runNode({ credentials, parameters: { resource: 'link', operation: 'getAll' } });
		expect(limited).toHaveLength(50);
		expect(limited[0].json.targetUrl).toBe(`https://example.org/many/${extra - 1}`);
		expect(limited.map((item) => item.pairedItem)).toEqual(limited.map(() => ({ item: 0 })));

		const few = await runNode({ credentials, parameters: { resource: 'link', operation: 'getAll', limit: 3 } });
		expect(few.map((item) => item.json.targetUrl)).toEqual([57, 58, 59].reverse().map((i) => `https://example.org/many/${i}`));

		const all = await runNode({ credentials, parameters: { resource: 'link', operation: 'getAll', returnAll: true } });
		expect(all).toHaveLength(total);
		expect(new Set(all.map((item) => item.json.id)).size).toBe(total);
	});

	it('Update changes fields, applies UTM to the current target URL and clears the expiry', async () => {
		const created = await createOne({
			targetUrl: 'https://example.org/update-me',
			additionalFields: { expiresAt: '2030-01-01T00:00:00.000Z' },
		});
		const [item] = await runNode({
			credentials,
			parameters: {
				resource: 'link',
				operation: 'update',
				link: locator('id', String(created.id)),
				updateFields: { title: 'Renamed', active: false, removeExpiry: true },
				utm: { campaign: 'autumn' },
			},
		});
		expect(item.json).toMatchObject({
			id: created.id,
			title: 'Renamed',
			active: false,
			expiresAt: null,
			targetUrl: 'https://example.org/update-me?utm_campaign=autumn',
		});
	});

	it('Update without any field is refused with the field named, before any request', async () => {
		const sent: SentRequest[] = [];
		await expect(
			runNode({ credentials, sent, parameters: { resource: 'link', operation: 'update', link: locator('id', '1') } }),
		).rejects.toMatchObject({ message: expect.stringContaining('Nothing to update'), context: { itemIndex: 0 } });
		expect(sent).toHaveLength(0);
	});

	it('Delete returns { deleted: true, id } and the link is gone', async () => {
		const created = await createOne({ targetUrl: 'https://example.org/delete-me' });
		const [item] = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'delete', link: locator('id', String(created.id)) },
		});
		expect(item.json).toEqual({ deleted: true, id: created.id });
		expect(sandbox.links(sandbox.demoAccountId).some((link) => link.id === created.id)).toBe(false);
	});

	it('Find by target URL and by slug on a domain', async () => {
		const byUrl = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'find', targetUrl: 'https://example.org/pricing' },
		});
		expect(byUrl.map((item) => item.json.title)).toEqual(['Pricing']);

		const bySlug = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'find', findBy: 'slug', slug: 'docs', domain: locator('hostname', 'go.example.org') },
		});
		expect(bySlug).toHaveLength(1);
		expect(bySlug[0].json).toMatchObject({ slug: 'docs', domain: 'go.example.org' });

		const onDefaultDomain = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'find', findBy: 'slug', slug: 'spring-sale' },
		});
		expect(onDefaultDomain.map((item) => item.json)).toEqual([expect.objectContaining({ slug: 'spring-sale', domain: null })]);
		const notOnDefaultDomain = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'find', findBy: 'slug', slug: 'docs' },
		});
		expect(notOnDefaultDomain).toHaveLength(0);

		const none = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'find', targetUrl: 'https://example.org/never-shortened' },
		});
		expect(none).toHaveLength(0);
	});

	it('Find or Create creates once, then returns the same link', async () => {
		const parameters = {
			resource: 'link',
			operation: 'findOrCreate',
			targetUrl: 'https://example.org/idempotent',
			utm: { source: 'sheet' },
		};
		const [first] = await runNode({ credentials, parameters });
		const [second] = await runNode({ credentials, parameters });
		expect(first.json.created).toBe(true);
		expect(second.json.created).toBe(false);
		expect(second.json.id).toBe(first.json.id);
		expect(second.json.targetUrl).toBe('https://example.org/idempotent?utm_source=sheet');
	});
});

describe('Stats', () => {
	it('Get returns the statistics object, or one row per day / country / device / browser / referrer', async () => {
		const [spring] = sandbox.links(sandbox.demoAccountId).filter((link) => link.slug === 'spring-sale');
		const link = locator('id', spring.id);
		const [whole] = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link } });
		const stats = whole.json as IDataObject & { clicksByDay: IDataObject[]; topCountries: IDataObject[] };
		expect(stats.linkId).toBe(spring.id);
		expect(stats.totalClicks).toBeGreaterThan(0);

		const days = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: 'day' } });
		expect(days.map((item) => item.json)).toEqual(
			stats.clicksByDay.map((row) => ({ linkId: spring.id, date: row.date, clicks: row.clicks })),
		);
		const countries = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: 'country' } });
		expect(countries.map((item) => item.json)).toEqual(
			stats.topCountries.map((row) => ({ linkId: spring.id, country: row.label, clicks: row.clicks })),
		);
		for (const split of ['device', 'browser', 'referrer']) {
			const rows = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: split } });
			expect(rows.length).toBeGreaterThan(0);
			expect(rows.every((row) => typeof row.json[split] === 'string' && typeof row.json.clicks === 'number')).toBe(true);
		}
	});
});

describe('Domain and Account', () => {
	it('Domain Get Many lists the verified custom domains', async () => {
		const output = await runNode({ credentials, parameters: { resource: 'domain', operation: 'getAll' } });
		expect(output.map((item) => item.json.hostname)).toEqual(['go.example.org']);
	});

	it('Account Get returns plan and usage', async () => {
		const [item] = await runNode({ credentials, parameters: { resource: 'account', operation: 'get' } });
		expect(item.json).toMatchObject({ name: 'Demo Business', plan: { name: 'business', apiAccess: true } });
		expect(item.json.usage).toEqual(expect.objectContaining({ links: expect.any(Number), clicks: expect.any(Number) }));
	});
});

describe('listSearch', () => {
	it('searchLinks filters by title/slug/URL and pages with the cursor; searchDomains lists hostnames', async () => {
		const { methods, context } = loadOptionsContext(credentials);
		const first = await methods.searchLinks.call(context, 'spring');
		expect(first.results.map((result) => result.value)).toContain(
			sandbox.links(sandbox.demoAccountId).find((link) => link.slug === 'spring-sale')?.id,
		);
		const page = await methods.searchLinks.call(context);
		expect(page.results.length).toBeGreaterThan(0);
		expect(typeof page.paginationToken).toBe('string');
		const next = await methods.searchLinks.call(context, undefined, String(page.paginationToken));
		expect(next.results[0]?.value).not.toBe(page.results[0]?.value);

		const domains = await methods.searchDomains.call(context, 'go.');
		expect(domains.results).toEqual([{ name: 'go.example.org', value: 'go.example.org' }]);
	});

	it('a wrong key shows the service 401 in the picker', async () => {
		const { methods, context } = loadOptionsContext({ ...credentials, apiKey: 'revoked-key' });
		await expect(methods.searchDomains.call(context)).rejects.toMatchObject({ httpCode: '401', message: 'Unauthorized' });
	});
});
