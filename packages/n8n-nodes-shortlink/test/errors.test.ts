/**
 * How failures reach the n8n user: API errors as NodeApiError carrying the service's problem title
 * (message), detail (description) and status (httpCode); bad input as NodeOperationError naming the
 * field; Continue On Fail turning each failure into an output item paired with its input item.
 * The built node runs against nock, through the same n8n-shaped request path as against the sandbox.
 */
import { startSandbox } from '@shortlink/sandbox';
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RECONNECT_ADVICE, UPGRADE_ADVICE } from '@shortlink/core/host';

import { offContract } from '../../../test/support/nock-contract';
import { locator, runNode, type SentRequest, type TestCredentials } from './harness';

const BASE = 'https://api.shortlink.test';
const KEY_UNDER_TEST = 'test-credential-that-must-not-leak';
const credentials: TestCredentials = { apiKey: KEY_UNDER_TEST, baseUrl: `${BASE}/` };
const PROBLEM = { 'Content-Type': 'application/problem+json', 'RateLimit-Limit': '120', 'RateLimit-Remaining': '100', 'RateLimit-Reset': '30' };
const JSON_OK = { ...PROBLEM, 'Content-Type': 'application/json' };

function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
	return { type: `https://shortlink.example/docs/api/errors#${status}`, title, status, detail, ...extra };
}

const CREATED = {
	id: '7',
	slug: 'abc',
	shortUrl: 'https://sho.rt/abc',
	targetUrl: 'https://example.org/ok',
	title: '',
	domain: null,
	active: true,
	clicks: 0,
	createdAt: '2026-03-01T09:30:00.000Z',
};

beforeAll(() => {
	nock.disableNetConnect();
});

afterEach(() => {
	nock.cleanAll();
});

afterAll(() => {
	nock.enableNetConnect();
});

// 401 and a plan's 403 also say what to do (the core's advice): reconnect, or upgrade.
const cases: Array<{ status: number; title: string; detail: string; shown?: string; advice?: string }> = [
	{ status: 401, title: 'Unauthorized', detail: 'The API key is missing or invalid.', advice: RECONNECT_ADVICE },
	{ status: 403, title: 'Plan without API access', detail: 'API access requires the business plan or higher; this account is on the pro plan.', advice: UPGRADE_ADVICE },
	{ status: 404, title: 'Not found', detail: 'No link with id 1042 exists.' },
	{ status: 409, title: 'Slug already taken', detail: 'The slug spring-sale is already in use on the default domain.' },
	// The service's field message in the form's words: the label instead of the API name.
	{ status: 422, title: 'Validation failed', detail: 'slug must start with a letter or digit.', shown: 'Slug must start with a letter or digit.' },
];

describe('API errors become NodeApiError with the service detail', () => {
	it.each(cases)('$status', async ({ status, title, detail, shown, advice }) => {
		const extra = status === 422 ? { errors: [{ field: 'slug', message: detail }] } : {};
		// PATCH /links/{id} declares every one of these statuses.
		nock(BASE).patch('/api/v1/links/1042').reply(status, problem(status, title, detail, extra), PROBLEM);
		const failure = runNode({
			credentials,
			parameters: { resource: 'link', operation: 'update', link: locator('id', '1042'), updateFields: { title: 'Renamed' } },
		});
		await expect(failure).rejects.toBeInstanceOf(NodeApiError);
		const error = (await failure.catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe(title);
		expect(error.description).toBe(advice ? `${shown ?? detail} ${advice}` : (shown ?? detail));
		expect(error.httpCode).toBe(String(status));
		expect(error.context.itemIndex).toBe(0);
		expect(JSON.stringify({ message: error.message, description: error.description, stack: error.stack })).not.toContain(KEY_UNDER_TEST);
		expect(nock.isDone()).toBe(true);
	});

	it('429 with a Retry-After beyond the wait cap fails at once with the service detail', async () => {
		nock(BASE)
			.post('/api/v1/links')
			.reply(429, problem(429, 'Too many requests', 'The limit of 120 requests per 60 seconds is spent; retry in 3600 seconds.'), {
				...PROBLEM,
				'Retry-After': '3600',
				'RateLimit-Remaining': '0',
			});
		const error = (await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'create', targetUrl: 'https://example.org/x' },
		}).catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('429');
		expect(error.message).toBe('Rate limit reached');
		expect(error.description).toContain('retry in 3600 seconds');
	});

	it('429 with a short Retry-After is waited out (n8n sleep) and the item succeeds', async () => {
		nock(BASE)
			.post('/api/v1/links')
			.reply(429, problem(429, 'Too many requests', 'Spent.'), {
				...PROBLEM,
				'Retry-After': '0',
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': '0',
			})
			.post('/api/v1/links')
			.reply(201, CREATED, JSON_OK);
		const [item] = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'create', targetUrl: 'https://example.org/ok' },
		});
		expect(item.json).toEqual({ ...CREATED, blocked: false, hasPassword: false, expiresAt: null });
		expect(nock.isDone()).toBe(true);
	});

	it('sends the Bearer key once per request, the trailing slash of the base URL tolerated', async () => {
		const seen: Array<string | undefined> = [];
		nock(BASE)
			.get('/api/v1/me')
			.reply(function () {
				seen.push(this.req.headers.authorization as string | undefined);
				const plan = { name: 'business', apiAccess: true, linkQuota: null };
				const usage = { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 0, clicks: 0 };
				return [200, { id: '1', name: 'A', email: 'a@example.org', plan, usage }, JSON_OK];
			});
		const sent: SentRequest[] = [];
		await runNode({ credentials, sent, parameters: { resource: 'account', operation: 'get' } });
		expect(seen).toEqual([`Bearer ${KEY_UNDER_TEST}`]);
		expect(sent[0].url).toBe(`${BASE}/api/v1/me`);
	});
});

describe('failures without a usable answer', () => {
	it('a 502 HTML page from a proxy shows the status and what came back', async () => {
		offContract(nock(BASE), 'a proxy in front answers with HTML').get('/api/v1/domains').times(4).reply(502, '<html><body>Bad gateway</body></html>', { 'Content-Type': 'text/html' });
		const error = (await runNode({ credentials, parameters: { resource: 'domain', operation: 'getAll' } }).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('502');
		expect(error.description).toMatch(/502/);
		expect(error.description).toMatch(/HTML/);
	});

	it('a refused connection is a NodeApiError naming the network code, after the core retried', async () => {
		nock.enableNetConnect('127.0.0.1');
		const closed = await startSandbox();
		await closed.close();
		const error = (await runNode({
			credentials: { apiKey: 'k', baseUrl: closed.baseUrl },
			parameters: { resource: 'account', operation: 'get' },
		}).catch((e: unknown) => e)) as NodeApiError;
		nock.disableNetConnect();
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Network error');
		expect(error.description).toContain('ECONNREFUSED');
		expect(error.httpCode).toBeNull();
	});
});

describe('Continue On Fail', () => {
	it('outputs one item per input item, failures with the whole explanation in the json, all paired to their input', async () => {
		nock(BASE)
			// The run's plan-quota pre-flight (five rows): the plan has plenty left.
			.get('/api/v1/me')
			.reply(200, { id: '1', name: 'Demo', email: 'demo@example.org', plan: { name: 'business', apiAccess: true, linkQuota: 1000 }, usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-03-31T23:59:59.999Z', links: 10, clicks: 0 } }, JSON_OK)
			.post('/api/v1/links')
			.reply(201, CREATED, JSON_OK)
			.post('/api/v1/links')
			.reply(409, problem(409, 'Slug already taken', 'The slug abc is already in use on the default domain.'), PROBLEM)
			.post('/api/v1/links')
			.reply(
				422,
				problem(422, 'Validation failed', 'title must NOT have more than 200 characters.', {
					errors: [{ field: 'title', message: 'title must NOT have more than 200 characters.' }],
				}),
				PROBLEM,
			);
		const rows = [
			{ url: 'https://example.org/ok', slug: 'abc' },
			{ url: 'https://example.org/taken', slug: 'abc' },
			{ url: 'https://example.org/long-title', slug: '', title: 'x'.repeat(201) },
			{ url: 'not a url', slug: '' },
			{ url: 'https://example.org/typo', slug: 'no spaces please' },
		];
		const output = await runNode({
			credentials,
			continueOnFail: true,
			items: rows,
			parameters: (i) => ({
				resource: 'link',
				operation: 'create',
				targetUrl: rows[i].url,
				additionalFields: { slug: rows[i].slug, title: rows[i].title ?? '' },
			}),
		});
		expect(output.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(output[0].json).toEqual({ ...CREATED, blocked: false, hasPassword: false, expiresAt: null });
		// Nothing beside the json: n8n 2.x would replace the json of an item that carries .error by { error: message }.
		expect(output.map((item) => item.error)).toEqual(rows.map(() => undefined));
		expect(output[1].json).toEqual({
			error: 'Slug already taken (HTTP 409): The slug abc is already in use on the default domain.',
			details: {
				message: 'Slug already taken',
				description: 'The slug abc is already in use on the default domain.',
				httpCode: '409',
				field: 'Slug',
			},
		});
		expect(output[2].json).toEqual({
			error: 'Validation failed (HTTP 422): Title must NOT have more than 200 characters.',
			details: { message: 'Validation failed', description: 'Title must NOT have more than 200 characters.', httpCode: '422', field: 'Title' },
		});
		expect(output[3].json).toEqual({
			error: 'Target URL must be an absolute http(s) URL such as https://example.org/page; got "not a url".',
			details: { message: 'Target URL must be an absolute http(s) URL such as https://example.org/page; got "not a url".', field: 'Target URL' },
		});
		// Checked before sending, in words: no third request for the typo.
		expect(output[4].json.error).toMatch(/^Slug may contain letters, digits, "-" and "_" only.*a space is not allowed \(got "no spaces please"\)\.$/);
		expect(output[4].json.details).toMatchObject({ field: 'Slug' });
		// Only the keys n8n's "Continue (using error output)" routes to the error output.
		for (const item of output.slice(1)) expect(Object.keys(item.json).sort()).toEqual(['details', 'error']);
		expect(nock.isDone()).toBe(true);
	});
});

describe('bad input stops before any request, naming the field', () => {
	it.each([
		[{ resource: 'link', operation: 'create', targetUrl: '' }, /^"Target URL" is required\. Enter a value or map one from an earlier step\.$/],
		[{ resource: 'link', operation: 'create', targetUrl: 'ftp://example.org/file' }, /^Target URL must be an absolute http\(s\) URL such as https:\/\/example\.org\/page; got "ftp:\/\/example\.org\/file"\.$/],
		// a host without a scheme gets https:// (core link-fields.ts); a broken scheme is checked as typed, UTM fields or not
		[{ resource: 'link', operation: 'create', targetUrl: 'http//example.org', utm: { source: 'news' } }, /^Target URL must be an absolute http\(s\) URL.*got "http\/\/example\.org"/],
		[
			{ resource: 'link', operation: 'create', targetUrl: 'https://example.org', additionalFields: { expiresAt: 'next tuesday' } },
			/^Expires At must be a date and time such as 2026-12-31T23:59:00 \(read in America\/New_York\).*got "next tuesday"/,
		],
		[
			{ resource: 'link', operation: 'create', targetUrl: 'https://example.org', additionalFields: { expiresAt: '2020-01-01T00:00:00' } },
			/^Expires At is in the past: 2020-01-01 00:00 in America\/New_York \(2020-01-01T05:00:00\.000Z\)/,
		],
		[
			{ resource: 'link', operation: 'create', targetUrl: 'https://example.org', additionalFields: { slug: 'no spaces please' } },
			/^Slug may contain letters, digits, "-" and "_" only, starting with a letter or digit, at most 64 characters; a space is not allowed/,
		],
		[{ resource: 'link', operation: 'update', link: locator('id', '1'), updateFields: { slug: '-x' } }, /^Slug must start with a letter or digit/],
		[
			{ resource: 'link', operation: 'update', link: locator('id', '1'), updateFields: { expiresAt: '2021-06-01T12:00:00Z' } },
			/^Expires At is in the past/,
		],
		[
			{ resource: 'link', operation: 'update', link: locator('id', '1'), updateFields: { title: 'New', removeTitle: true } },
			/^Both "Title" and "Remove Title" are set: enter a new value or turn on "Remove Title", not both\.$/,
		],
		[{ resource: 'stats', operation: 'get', link: locator('id', '1'), splitInto: 'day', dayOptions: { from: '2026-03-05', to: '2026-03-01' } }, /^From \(2026-03-05\) must be on or before To \(2026-03-01\)\.$/],
		[{ resource: 'link', operation: 'get', link: locator('id', '') }, /^"Link" is required/],
		[{ resource: 'link', operation: 'get', link: locator('url', 'sho.rt/spring-sale') }, /^"Link" must be a link's ID \(digits, e\.g\. 1042\) or its full short URL/],
		[{ resource: 'link', operation: 'delete', link: locator('url', 'https://sho.rt/') }, /^Link must end with the slug/],
		[{ resource: 'link', operation: 'find', findBy: 'slug', slug: '  ' }, /^Enter a "Target URL" or a "Slug" to search for\.$/],
		[{ resource: 'link', operation: 'delete', link: locator('id', '1'.repeat(5000)) }, /^Link must be a link id of at most 256 characters/],
	])('%j', async (parameters, message) => {
		const sent: SentRequest[] = [];
		const error = (await runNode({ credentials, sent, parameters }).catch((e: unknown) => e)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(message);
		// The form's words only: no API field name, no raw pattern.
		expect(error.message).not.toMatch(/\b(targetUrl|expiresAt|shortUrl)\b|^(url|slug|id)\b|\^\[/);
		expect(error.context.itemIndex).toBe(0);
		expect(sent).toHaveLength(0);
	});

	it('a refused Base URL of the credential is a node error naming it, with nothing sent', async () => {
		const sent: SentRequest[] = [];
		const error = (await runNode({
			credentials: { apiKey: KEY_UNDER_TEST, baseUrl: 'http://short.example.com' },
			sent,
			parameters: { resource: 'account', operation: 'get' },
		}).catch((e: unknown) => e)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^Base URL must use https/);
		expect(error.description).toBe('Open the Short Link API credential and correct its field "Base URL".');
		expect(sent).toHaveLength(0);
	});

	it('Delete by a short URL that belongs to no link: already deleted, after the whole account was searched', async () => {
		nock(BASE)
			.get('/api/v1/links')
			.query(true)
			.reply(200, { data: [], nextCursor: null }, JSON_OK);
		const [item] = await runNode({
			credentials,
			parameters: { resource: 'link', operation: 'delete', link: locator('url', 'https://sho.rt/missing') },
		});
		expect(item.json).toEqual({ shortUrl: 'https://sho.rt/missing', id: null, targetUrl: null, title: null, deleted: true, alreadyDeleted: true });
		expect(nock.isDone()).toBe(true);
	});
});
