/**
 * Every operation of the built Short Link node through execute(), over real HTTP against the sandbox,
 * with the request options n8n would receive and the credential applied the way n8n applies it.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

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
	it('Create sends n8n-shaped options, applies UTM with the core builder and returns the twelve fields of Get', async () => {
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
		const [got] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('id', String(link.id)) } });
		// Same fields, same order, same values: a workflow sees one shape whichever operation made the item.
		expect(link).toEqual(got.json);
		expect(Object.keys(link)).toEqual(Object.keys(got.json));
		expect(Object.keys(link)).toHaveLength(12);
		const target = new URL(String(link.targetUrl));
		expect(target.searchParams.get('ref')).toBe('home');
		expect(target.searchParams.get('utm_source')).toBe('newsletter');
		expect(target.searchParams.get('utm_medium')).toBe('email');
		// Normalised as the core's UTM rules say: lower case, "_" between words.
		expect(target.searchParams.get('utm_campaign')).toBe('summer_sale');
		expect(link).toMatchObject({ slug: 'summer-2026', title: 'Summer', domain: null, active: true, clicks: 0 });

		expect(sent).toHaveLength(1); // the three missing fields come from the spec, not from another request
		expect(sent[0]).toMatchObject({
			method: 'POST',
			url: `${sandbox.baseUrl}/api/v1/links`,
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		});
		expect(sent[0].headers?.Authorization).toBe(`Bearer ${sandbox.apiKey}`);
	});

	it('Create with a password and an expiry from the date picker (wall time, read in the workflow time zone) equals Get', async () => {
		const sent: SentRequest[] = [];
		const [created] = await runNode({
			credentials,
			sent,
			timezone: 'Europe/Berlin',
			parameters: {
				resource: 'link',
				operation: 'create',
				targetUrl: 'https://example.org/expiring',
				// what n8n's dateTime picker stores: no zone
				additionalFields: { expiresAt: '2030-12-31T00:00:00', password: 'open sesame' },
			},
		});
		expect(sent[0].body).toMatchObject({ expiresAt: '2030-12-30T23:00:00.000Z' });
		expect(created.json).toMatchObject({ hasPassword: true, blocked: false, expiresAt: '2030-12-30T23:00:00.000Z' });
		const [got] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('id', String(created.json.id)) } });
		expect(created.json).toEqual(got.json);
	});

	it('an expiry from an expression: ISO with a zone and Luxon DateTime values mean their instant, whatever the workflow zone', async () => {
		const { DateTime } = jest.requireActual<{ DateTime: { fromISO(text: string, options: object): unknown } }>('luxon');
		const values: Array<[unknown, string]> = [
			['2031-01-01T12:00:00+02:00', '2031-01-01T10:00:00.000Z'],
			[DateTime.fromISO('2031-01-01T12:00:00', { zone: 'Asia/Tokyo' }), '2031-01-01T03:00:00.000Z'],
			[new Date('2031-01-01T12:00:00Z'), '2031-01-01T12:00:00.000Z'],
		];
		for (const [expiresAt, stored] of values) {
			const [item] = await runNode({
				credentials,
				timezone: 'America/Los_Angeles',
				parameters: { resource: 'link', operation: 'create', targetUrl: 'https://example.org/expression-expiry', additionalFields: { expiresAt: expiresAt as string } },
			});
			expect(item.json.expiresAt).toBe(stored);
		}
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

	it('Get Many with Return All ends at once with the circle error when the cursors lead in a circle (A → B → A, new links each page)', async () => {
		sandbox.setQuirks({ cursorCycle: true });
		const sent: SentRequest[] = [];
		const hints: NodeExecutionHint[] = [];
		try {
			const error = await runNode({ credentials, sent, hints, parameters: { resource: 'link', operation: 'getAll', returnAll: true } }).then(
				() => undefined,
				(thrown: Error) => thrown,
			);
			expect(error?.message).toMatch(/The service's paging leads in a circle/);
			expect(error?.message).not.toMatch(/run it again/i);
			expect(hints).toEqual([]);
			// The first page, A, B: B's next (A again) closes the circle.
			expect(sent.filter((request) => new URL(request.url).pathname === '/api/v1/links')).toHaveLength(3);
		} finally {
			sandbox.setQuirks({});
		}
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

	it('Update can remove the title, and sets an expiry read in the workflow time zone', async () => {
		const created = await createOne({ targetUrl: 'https://example.org/titled', additionalFields: { title: 'To be removed' } });
		const [item] = await runNode({
			credentials,
			timezone: 'Asia/Tokyo',
			parameters: {
				resource: 'link',
				operation: 'update',
				link: locator('id', String(created.id)),
				updateFields: { removeTitle: true, expiresAt: '2031-06-01T09:00:00' },
			},
		});
		expect(item.json).toMatchObject({ id: created.id, title: '', expiresAt: '2031-06-01T00:00:00.000Z' });
		expect(sandbox.links(sandbox.demoAccountId).find((link) => link.id === created.id)).toMatchObject({ title: '' });
	});

	it('Update without any field is refused with the field named, before any request', async () => {
		const sent: SentRequest[] = [];
		await expect(
			runNode({ credentials, sent, parameters: { resource: 'link', operation: 'update', link: locator('id', '1') } }),
		).rejects.toMatchObject({ message: expect.stringContaining('Nothing to update'), context: { itemIndex: 0 } });
		expect(sent).toHaveLength(0);
	});

	it('Delete returns what was deleted, the link is gone, and a rerun reports it already deleted', async () => {
		const created = await createOne({ targetUrl: 'https://example.org/delete-me' });
		const parameters = { resource: 'link', operation: 'delete', link: locator('id', String(created.id)) };
		const [item] = await runNode({ credentials, parameters });
		expect(item.json).toEqual({ shortUrl: created.shortUrl, id: created.id, targetUrl: 'https://example.org/delete-me', title: created.title, deleted: true, alreadyDeleted: false });
		expect(sandbox.links(sandbox.demoAccountId).some((link) => link.id === created.id)).toBe(false);
		const [again] = await runNode({ credentials, parameters });
		expect(again.json).toMatchObject({ id: created.id, deleted: true, alreadyDeleted: true });
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
		// n8n's convention for a search: no match, no item.
		expect(notOnDefaultDomain).toEqual([]);
	});

	it('Find with no match outputs nothing by default, or says so, or fails the item, as chosen', async () => {
		const find = { resource: 'link', operation: 'find', targetUrl: 'https://example.org/never-shortened' };
		expect(await runNode({ credentials, parameters: find })).toEqual([]);
		const said = await runNode({ credentials, parameters: { ...find, ifNoMatch: 'outputNotFound' } });
		expect(said.map((item) => item.json)).toEqual([
			{
				found: false,
				message: 'No link with the target URL https://example.org/never-shortened on the default domain.',
				targetUrl: 'https://example.org/never-shortened',
				slug: null,
				domain: null,
			},
		]);
		expect(said[0].pairedItem).toEqual({ item: 0 });
		const bySlug = await runNode({ credentials, parameters: { resource: 'link', operation: 'find', findBy: 'slug', slug: 'docs', ifNoMatch: 'outputNotFound' } });
		expect(bySlug.map((item) => item.json)).toEqual([
			{ found: false, message: 'No link with the slug "docs" on the default domain.', targetUrl: null, slug: 'docs', domain: null },
		]);

		await expect(runNode({ credentials, parameters: { ...find, ifNoMatch: 'error' } })).rejects.toMatchObject({
			message: 'No link with the target URL https://example.org/never-shortened on the default domain.',
			context: { itemIndex: 0 },
		});
		const continued = await runNode({ credentials, continueOnFail: true, parameters: { ...find, ifNoMatch: 'error' } });
		expect(continued[0].json).toMatchObject({ error: expect.stringContaining('No link with the target URL') });
	});

	it('Simplify: ten fields on Get, Get Many and Find', async () => {
		const created = await createOne({ targetUrl: 'https://example.org/simple', additionalFields: { title: 'Simple' } });
		const ten = ['shortUrl', 'id', 'targetUrl', 'title', 'slug', 'domain', 'clicks', 'active', 'expiresAt', 'createdAt'];
		const outputs = [
			await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('id', String(created.id)), simplify: true } }),
			await runNode({ credentials, parameters: { resource: 'link', operation: 'getAll', limit: 2, simplify: true } }),
			await runNode({ credentials, parameters: { resource: 'link', operation: 'find', targetUrl: 'https://example.org/simple', simplify: true } }),
		];
		for (const output of outputs) {
			expect(output.length).toBeGreaterThan(0);
			for (const item of output) expect(Object.keys(item.json)).toEqual(ten);
		}
		expect(outputs[0][0].json).toMatchObject({ id: created.id, title: 'Simple', targetUrl: 'https://example.org/simple' });
		// Off by default: the whole link, as after Create.
		const [whole] = await runNode({ credentials, parameters: { resource: 'link', operation: 'get', link: locator('id', String(created.id)) } });
		expect(whole.json).toEqual(created);
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
		// Created or found: the same fields in the same order (twelve of the link, then created).
		expect(Object.keys(first.json)).toEqual(Object.keys(second.json));
		expect({ ...first.json, created: false }).toEqual(second.json);
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
			stats.clicksByDay.map((row) => ({ shortUrl: spring.shortUrl, title: 'Spring sale', linkId: spring.id, date: row.date, clicks: row.clicks })),
		);
		const countries = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: 'country' } });
		expect(countries.map((item) => item.json)).toEqual(
			stats.topCountries.map((row) => ({ shortUrl: spring.shortUrl, title: 'Spring sale', linkId: spring.id, country: row.label, clicks: row.clicks })),
		);
		for (const split of ['device', 'browser', 'referrer']) {
			const rows = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: split } });
			expect(rows.length).toBeGreaterThan(0);
			expect(rows.every((row) => typeof row.json[split] === 'string' && typeof row.json.clicks === 'number')).toBe(true);
		}
	});
});

describe('Stats per day for charts', () => {
	it('includes every day of the range with 0 where nobody clicked; the range limits the rows', async () => {
		const [spring] = sandbox.links(sandbox.demoAccountId).filter((link) => link.slug === 'spring-sale');
		const link = locator('id', spring.id);
		const [whole] = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link } });
		const clicked = whole.json.clicksByDay as Array<{ date: string; clicks: number }>;
		const day = (offset: number, from: string) => new Date(Date.parse(`${from}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
		const from = day(-2, clicked[0].date);
		const to = clicked[clicked.length - 1].date;

		const rows = await runNode({
			credentials,
			parameters: { resource: 'stats', operation: 'get', link, splitInto: 'day', dayOptions: { from, to, includeDaysWithoutClicks: true } },
		});
		const dates = rows.map((row) => String(row.json.date));
		const span = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
		expect(dates).toEqual(Array.from({ length: span }, (_, i) => day(i, from)));
		const byDate = new Map(clicked.map((row) => [row.date, row.clicks]));
		for (const row of rows) expect(row.json).toEqual({ shortUrl: spring.shortUrl, title: 'Spring sale', linkId: spring.id, date: row.json.date, clicks: byDate.get(String(row.json.date)) ?? 0 });
		expect(rows.slice(0, 2).map((row) => row.json.clicks)).toEqual([0, 0]);

		// A range without filling: only days with clicks inside it (from the date picker's date-only value).
		const last = await runNode({ credentials, parameters: { resource: 'stats', operation: 'get', link, splitInto: 'day', dayOptions: { from: to } } });
		expect(last.map((row) => row.json)).toEqual([{ shortUrl: spring.shortUrl, title: 'Spring sale', linkId: spring.id, date: to, clicks: byDate.get(to) }]);
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

describe('the node as the editor shows it', () => {
	const { ShortLink } = jest.requireActual<typeof import('./harness')>('./harness');
	const properties = () => {
		const all: Array<{ type: string; name: string; hint?: string; options?: unknown[] }> = [];
		const walk = (list: unknown[]) => {
			for (const property of list as Array<{ type: string; name: string; hint?: string; options?: unknown[] }>) {
				if (typeof property !== 'object' || property === null || !('type' in property)) continue;
				all.push(property);
				if (Array.isArray(property.options)) walk(property.options);
			}
		};
		walk(new ShortLink().description.properties);
		return all;
	};

	it('puts no hint on a collection (n8n does not show it there) and no information in a warning notice', () => {
		const list = properties();
		expect(list.filter((property) => property.hint && ['collection', 'fixedCollection'].includes(property.type)).map((p) => p.name)).toEqual([]);
		expect(list.filter((property) => property.type === 'notice').map((p) => p.name)).toEqual([]);
		// Update's UTM fields say on each field, where the editor shows it, where they go (the core's help).
		const update = new ShortLink().description.properties.find(
			(property) => property.name === 'utm' && property.displayOptions?.show?.operation?.includes('update'),
		) as { options: Array<{ name: string; description?: string; hint?: string }> };
		// The editor shows a hint under the field, the description on hover only: where it goes is the hint too.
		expect(update.options.map((option) => option.hint)).toEqual(update.options.map(() => "Added to the new target URL, or to the link's current one"));
		expect(update.options.map((option) => [option.name, option.description?.endsWith("Added to the new target URL, or to the link's current one.")])).toEqual(
			// The preset first, then in the order marketers think: source, medium, campaign, then term and content.
			['preset', 'source', 'medium', 'campaign', 'term', 'content'].map((name) => [name, true]),
		);
	});

	it('links the user guide as its documentation, without a fragment that n8n would append its query to', () => {
		const node = new ShortLink();
		expect(node.description.documentationUrl).toMatch(/\/docs\/n8n\.md$/);
		for (const file of ['../nodes/ShortLink/ShortLink.node.json', '../nodes/ShortLinkTrigger/ShortLinkTrigger.node.json']) {
			const codex = jest.requireActual<{ resources: { primaryDocumentation: Array<{ url: string }> } }>(file);
			for (const { url } of codex.resources.primaryDocumentation) expect(url).not.toContain('#');
		}
	});
});
