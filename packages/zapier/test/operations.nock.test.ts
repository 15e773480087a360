/**
 * Every operation through createAppTester against nock: the exact requests the app sends (method, path,
 * query, JSON body, bearer header) and how it shapes answers and errors.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { app, authData, newAppTester, run, simulateCursorRpc, type AppTester } from './helpers';

const BASE = 'https://short.test';
const API = '/api/v1';
const KEY = 'sk_live_zapier_test_key_0123456789';
const auth = authData(BASE, KEY);

const link = {
  id: '1042',
  slug: 'spring-sale',
  shortUrl: 'https://go.example.org/spring-sale',
  targetUrl: 'https://example.org/spring-sale',
  title: 'Spring sale',
  domain: 'go.example.org',
  active: true,
  blocked: false,
  hasPassword: false,
  clicks: 5,
  expiresAt: null,
  createdAt: '2026-03-01T09:30:00.000Z',
};
const { blocked: _b, hasPassword: _h, expiresAt: _e, ...created } = link;

const problem = (status: number, title: string, detail: string, extra: object = {}) => ({
  type: `https://shortlink.example/docs/api/errors#${title.toLowerCase().replace(/\s+/g, '-')}`,
  title,
  status,
  detail,
  ...extra,
});
const PROBLEM_JSON = { 'Content-Type': 'application/problem+json' };
/** GET /me of the connected account (its `id` binds the New Link trigger's state). */
const ACCOUNT = {
  id: '1',
  name: 'Demo Business',
  email: 'demo@example.com',
  plan: { name: 'business', apiAccess: true, linkQuota: null },
  usage: { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', links: 3, clicks: 12 },
};

/** Every answer of the service carries the RateLimit-* headers (a fixture may override them). */
const RATE_LIMIT = { 'RateLimit-Limit': '120', 'RateLimit-Remaining': '119', 'RateLimit-Reset': '60' };

/** The service only answers requests that carry the key as a bearer token. */
function api() {
  return nock(BASE).matchHeader('authorization', `Bearer ${KEY}`).defaultReplyHeaders(RATE_LIMIT);
}

/** Zapier errors carry their fields JSON-encoded in the message (z.errors.Error, ThrottledError). */
function errorFields(error: unknown): Record<string, unknown> {
  return JSON.parse((error as Error).message) as Record<string, unknown>;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

let appTester: AppTester;

beforeAll(() => {
  nock.disableNetConnect();
});
beforeEach(() => {
  appTester = newAppTester();
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore(); // leave Node's http module as found for the next test file in this worker
});

describe('authentication', () => {
  it('is custom auth with the shared credential fields and help', () => {
    expect(app.authentication?.type).toBe('custom');
    const fields = app.authentication?.fields as unknown as Array<Record<string, unknown>>;
    const apiKey = fields.find((field) => field.key === 'apiKey')!;
    const baseUrl = fields.find((field) => field.key === 'baseUrl')!;
    expect(apiKey).toMatchObject({ label: 'API Key', type: 'password', required: true });
    expect(apiKey.helpText).toMatch(/dashboard/);
    expect(apiKey.helpText).toMatch(/"API"/);
    expect(apiKey.helpText).toMatch(/once/);
    expect(baseUrl).toMatchObject({ label: 'Base URL', required: true });
    // No default address: the service's real address is not known to the app.
    expect(baseUrl).not.toHaveProperty('default');
    expect(baseUrl).not.toHaveProperty('placeholder');
  });

  it('tests the key with GET /me and labels the connection with name and email', async () => {
    api().get(`${API}/me`).reply(200, ACCOUNT);
    const result = await run(appTester, 'authentication.test', { authData: auth });
    expect(result).toEqual(ACCOUNT);
    const label = await run<string>(appTester, 'authentication.connectionLabel', { authData: auth, inputData: result });
    expect(label).toBe('Demo Business (demo@example.com)');
    expect(label).not.toContain(KEY);
  });

  it('turns 401 into ExpiredAuthError with the service detail and without the key', async () => {
    api().get(`${API}/me`).reply(401, problem(401, 'Unauthorized', 'The API key is missing or invalid.'), PROBLEM_JSON);
    const error = await rejection(run(appTester, 'authentication.test', { authData: auth }));
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toContain('The API key is missing or invalid.');
    expect(error.message).toMatch(/reconnect/i);
    expect(JSON.stringify(error) + error.message + error.stack).not.toContain(KEY);
  });

  it('turns a 403 plan restriction into an error that names the business plan', async () => {
    api()
      .get(`${API}/me`)
      .reply(403, problem(403, 'Plan without API access', 'API access requires the business plan or higher; this account is on the pro plan.'), PROBLEM_JSON);
    const error = await rejection(run(appTester, 'authentication.test', { authData: auth }));
    const fields = errorFields(error);
    expect(fields.message).toMatch(/business plan or higher/);
    expect(fields.message).toContain('this account is on the pro plan');
    expect(fields).toMatchObject({ code: 'plan_required', status: 403 });
  });

  it('keeps the upgrade advice for the plan case only, as the core tells it from the problem type', async () => {
    // The hostname holds the word "plans": the type, not the words, decides.
    api()
      .post(`${API}/links`)
      .reply(
        403,
        { ...problem(403, 'Domain not allowed', 'domain plans.example.net is not a verified custom domain of this account.'), type: 'https://shortlink.example/docs/api/errors#domain-forbidden' },
        PROBLEM_JSON,
      );
    const domain = errorFields(await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', domain: 'plans.example.net' } })));
    expect(domain).toMatchObject({ code: 'forbidden', status: 403 });
    expect(domain.message).not.toMatch(/business plan/);

    api()
      .get(`${API}/me`)
      .reply(403, { ...problem(403, 'Forbidden', 'No API access for this account.'), type: 'https://shortlink.example/docs/api/errors#plan-required' }, PROBLEM_JSON);
    const plan = errorFields(await rejection(run(appTester, 'authentication.test', { authData: auth })));
    expect(plan).toMatchObject({ code: 'plan_required', status: 403 });
    expect(plan.message).toContain('No API access for this account.');
  });
});

describe('create_link', () => {
  it('sends the fields as JSON, applies the UTM fields and returns the created link', async () => {
    api()
      .matchHeader('content-type', /application\/json/)
      .post(`${API}/links`, {
        targetUrl: 'https://example.org/spring-sale?ref=a&utm_source=newsletter&utm_medium=email&utm_campaign=spring',
        slug: 'spring-sale',
        title: 'Spring sale',
        domain: 'go.example.org',
        expiresAt: '2026-12-31T23:59:59.000Z', // the core normalises to UTC milliseconds
      })
      .reply(201, created);
    const result = await run(appTester, 'creates.create_link', {
      authData: auth,
      inputData: {
        targetUrl: 'https://example.org/spring-sale?ref=a&utm_source=old',
        utmSource: 'newsletter',
        utmMedium: 'email',
        utmCampaign: 'spring',
        utmTerm: '',
        slug: 'spring-sale',
        title: 'Spring sale',
        domain: 'go.example.org',
        expiresAt: '2026-12-31T23:59:59Z',
        password: '',
      },
    });
    expect(result).toEqual(created);
  });

  it('leaves the target URL untouched without UTM fields and sends no empty fields', async () => {
    api().post(`${API}/links`, { targetUrl: 'https://example.org/a?b=c' }).reply(201, { ...created, targetUrl: 'https://example.org/a?b=c' });
    const result = await run(appTester, 'creates.create_link', {
      authData: auth,
      inputData: { targetUrl: 'https://example.org/a?b=c', slug: '', title: '  ' },
    });
    expect(result).toMatchObject({ targetUrl: 'https://example.org/a?b=c' });
  });

  it('reports the service detail of a 422 and of a 409', async () => {
    api()
      .post(`${API}/links`)
      .reply(422, problem(422, 'Validation failed', 'title must be at most 200 characters.', { errors: [{ field: 'title', message: 'title must be at most 200 characters.' }] }), PROBLEM_JSON);
    const invalid = errorFields(
      await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', title: 'x' } })),
    );
    expect(invalid.message).toContain('title must be at most 200 characters.');
    expect(invalid).toMatchObject({ code: 'validation', status: 422 });

    api().post(`${API}/links`).reply(409, problem(409, 'Slug already taken', 'The slug spring-sale is already in use on the default domain.'), PROBLEM_JSON);
    const taken = errorFields(
      await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', slug: 'spring-sale' } })),
    );
    expect(taken.message).toContain('The slug spring-sale is already in use on the default domain.');
    expect(taken).toMatchObject({ code: 'conflict', status: 409 });
  });

  it('names the field when the target URL is missing or not a URL, without sending anything', async () => {
    const missing = errorFields(await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: ' ' } })));
    expect(missing.message).toMatch(/Target URL \(targetUrl\) is required/);
    const broken = errorFields(
      await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'not a url', utmSource: 'x' } })),
    );
    expect(broken.message).toMatch(/^Target URL \(targetUrl\): .*absolute URL/);
  });
});

describe('rate limits', () => {
  it('waits out a short Retry-After itself and then succeeds', async () => {
    api().get(`${API}/links/1042`).reply(429, problem(429, 'Too many requests', 'Retry in 1 second.'), { ...PROBLEM_JSON, 'Retry-After': '1' });
    api().get(`${API}/links/1042`).reply(200, link);
    const result = await run(appTester, 'searches.find_link', { authData: auth, inputData: { id: '1042' } });
    expect(result).toEqual([link]);
  });

  it('turns a Retry-After above the 20 s cap into ThrottledError with that delay', async () => {
    api().get(`${API}/links/1042`).reply(429, problem(429, 'Too many requests', 'The limit of 120 requests per 60 seconds is spent; retry in 42 seconds.'), { ...PROBLEM_JSON, 'Retry-After': '42' });
    const error = await rejection(run(appTester, 'searches.find_link', { authData: auth, inputData: { id: '1042' } }));
    expect(error.name).toBe('ThrottledError');
    expect(errorFields(error).delay).toBe(42);
  });

  it('declares the 120 requests per minute per authentication throttle for the whole app', () => {
    expect(app.throttle).toEqual({ window: 60, limit: 120, scope: ['auth'] });
  });
});

describe('update_link and delete_link', () => {
  it('sends only the filled fields, with null to remove the expiry', async () => {
    api().patch(`${API}/links/1042`, { title: 'Spring sale (extended)', active: false, expiresAt: null }).reply(200, { ...link, title: 'Spring sale (extended)', active: false });
    const result = await run(appTester, 'creates.update_link', {
      authData: auth,
      inputData: { id: '1042', title: 'Spring sale (extended)', active: 'false', removeExpiry: true, targetUrl: '', slug: '' },
    });
    expect(result).toMatchObject({ id: '1042', title: 'Spring sale (extended)', active: false });
  });

  it('rejects an expiry together with Remove Expiry, and a boolean it cannot read', async () => {
    const both = errorFields(
      await rejection(run(appTester, 'creates.update_link', { authData: auth, inputData: { id: '1042', expiresAt: '2027-01-01T00:00:00Z', removeExpiry: 'yes' } })),
    );
    expect(both.message).toMatch(/expiresAt.*removeExpiry/);
    const unreadable = errorFields(await rejection(run(appTester, 'creates.update_link', { authData: auth, inputData: { id: '1042', active: 'maybe' } })));
    expect(unreadable.message).toMatch(/Active \(active\) must be true or false/);
  });

  it('deletes and reports what it deleted; a missing link is a clear error', async () => {
    api().delete(`${API}/links/1042`).reply(204);
    const result = await run(appTester, 'creates.delete_link', { authData: auth, inputData: { id: '1042' } });
    expect(result).toEqual({ id: '1042', deleted: true });

    api().delete(`${API}/links/77`).reply(404, problem(404, 'Not found', 'No link with id 77 exists.'), PROBLEM_JSON);
    const error = errorFields(await rejection(run(appTester, 'creates.delete_link', { authData: auth, inputData: { id: '77' } })));
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect(error.message).toContain('No link with id 77 exists.');
  });
});

describe('find_link', () => {
  it('finds by id, and answers an unknown id with no result', async () => {
    api().get(`${API}/links/1042`).reply(200, link);
    expect(await run(appTester, 'searches.find_link', { authData: auth, inputData: { id: '1042' } })).toEqual([link]);
    api().get(`${API}/links/9`).reply(404, problem(404, 'Not found', 'No link with id 9 exists.'), PROBLEM_JSON);
    expect(await run(appTester, 'searches.find_link', { authData: auth, inputData: { id: '9' } })).toEqual([]);
  });

  it('finds by target URL or slug by scanning the list', async () => {
    const other = { ...link, id: '1041', slug: 'other', targetUrl: 'https://example.org/other' };
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [link, other], nextCursor: 'c2' });
    api().get(`${API}/links`).query({ limit: '100', cursor: 'c2' }).reply(200, { data: [{ ...other, id: '1000', slug: 'third' }], nextCursor: null });
    // The domain is part of "the same link": the fixtures live on go.example.org.
    const bySlug = await run(appTester, 'searches.find_link', { authData: auth, inputData: { slug: 'third', domain: 'go.example.org' } });
    expect(bySlug).toEqual([{ ...other, id: '1000', slug: 'third' }]);
  });

  it('finds by short URL through the core: the host picks the domain, nothing found is no result', async () => {
    const twin = { ...link, id: '1043', shortUrl: 'https://sho.rt/spring-sale', domain: null };
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [twin, link], nextCursor: null });
    const found = await run(appTester, 'searches.find_link', { authData: auth, inputData: { shortUrl: 'https://GO.example.org/spring-sale/', slug: 'ignored' } });
    expect(found).toEqual([link]);
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [twin, link], nextCursor: null });
    expect(await run(appTester, 'searches.find_link', { authData: auth, inputData: { shortUrl: 'https://other.example.net/spring-sale' } })).toEqual([]);
  });

  it('names the shortUrl field when it is no short URL, before any request', async () => {
    const error = errorFields(await rejection(run(appTester, 'searches.find_link', { authData: auth, inputData: { shortUrl: 'sho.rt/spring-sale' } })));
    expect(error).toMatchObject({ code: 'input' });
    expect(error.message).toMatch(/shortUrl must be an absolute http\(s\) URL/);
  });

  it('asks for one of the search fields', async () => {
    const error = errorFields(await rejection(run(appTester, 'searches.find_link', { authData: auth, inputData: {} })));
    expect(error.message).toMatch(/id.*targetUrl.*slug/);
  });
});

describe('link_stats', () => {
  it('flattens the totals and the leaders and keeps the lists', async () => {
    const stats = {
      linkId: '1042',
      totalClicks: 9,
      clicksByDay: [{ date: '2026-03-01', clicks: 4 }, { date: '2026-03-03', clicks: 5 }],
      topCountries: [{ label: 'DE', clicks: 6 }, { label: 'US', clicks: 3 }],
      topDevices: [{ label: 'mobile', clicks: 9 }],
      topBrowsers: [{ label: 'Safari', clicks: 9 }],
      topReferrers: [],
    };
    api().get(`${API}/links/1042/stats`).reply(200, stats);
    const [result] = (await run(appTester, 'searches.link_stats', { authData: auth, inputData: { id: '1042' } })) as Array<Record<string, unknown>>;
    expect(result).toMatchObject({
      id: '1042',
      totalClicks: 9,
      lastDay: '2026-03-03',
      clicksLastDay: 5,
      daysWithClicks: 2,
      topCountry: 'DE',
      topCountryClicks: 6,
      topDevice: 'mobile',
      topBrowser: 'Safari',
      topReferrer: null,
      topReferrerClicks: 0,
      topCountries: stats.topCountries,
      clicksByDay: stats.clicksByDay,
    });
  });
});

describe('dropdown sources', () => {
  it('lists the verified domains', async () => {
    const domains = [{ id: '7', hostname: 'go.example.org', verified: true, createdAt: '2026-01-15T08:00:00.000Z' }];
    api().get(`${API}/domains`).reply(200, { data: domains });
    expect(await run(appTester, 'triggers.domain_list', { authData: auth })).toEqual(domains);
  });

  it('pages the links dropdown with the list cursor kept in z.cursor', async () => {
    const { cursors, restore } = simulateCursorRpc();
    try {
      const second = { ...link, id: '1041' };
      api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [link], nextCursor: 'c2' });
      api().get(`${API}/links`).query({ limit: '100', cursor: 'c2' }).reply(200, { data: [second], nextCursor: null });
            expect(await run(appTester, 'triggers.link_list', { authData: auth, meta: { page: 0 } })).toEqual([link]);
      expect(await run(appTester, 'triggers.link_list', { authData: auth, meta: { page: 1 } })).toEqual([second]);
      // The last page left an empty cursor: page 2 is empty without asking the API.
      expect(await run(appTester, 'triggers.link_list', { authData: auth, meta: { page: 2 } })).toEqual([]);
      expect(cursors.size).toBe(1);
    } finally {
      restore();
    }
  });
});

describe('new_link sample', () => {
  it('returns at most three links when Zapier loads a sample', async () => {
    api().get(`${API}/links`).query({ limit: '3' }).reply(200, { data: [link, { ...link, id: '1041' }, { ...link, id: '1040' }], nextCursor: 'c' });
    const result = (await run(appTester, 'triggers.new_link', { authData: auth, meta: { isLoadingSample: true } })) as unknown[];
    expect(result).toHaveLength(3);
  });
});

describe('new_link polls', () => {
  it('marks, then costs one request per quiet poll, then returns only the new link', async () => {
    const older = { ...link, id: '1041', createdAt: '2026-03-01T09:00:00.000Z' };
    const page = { data: [link, older], nextCursor: null };
    const bundle = { authData: auth, inputData: {}, meta: { zap: { id: 'zap-nock' } } };
    // First poll: the core learns whose account this is (once), sets its mark, then the newest page goes
    // to Zapier's dedupe.
    api().get(`${API}/me`).reply(200, ACCOUNT);
    api().get(`${API}/links`).query({ limit: '100' }).times(2).reply(200, page);
    expect(await run(appTester, 'triggers.new_link', bundle)).toEqual([link, older]);
    // Quiet poll: exactly one request (nock fails the test on a second one).
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, page);
    expect(await run(appTester, 'triggers.new_link', bundle)).toEqual([]);
    const newer = { ...link, id: '1043', createdAt: '2026-03-02T10:00:00.000Z' };
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [newer, link, older], nextCursor: null });
    expect(await run(appTester, 'triggers.new_link', bundle)).toEqual([newer]);
  });
});

describe('network failures', () => {
  // A real refused connection (nock's replyWithError never settles a z.request): a port just closed.
  it('reports a refused connection as a clear error, after the retries of the core', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    nock.enableNetConnect('127.0.0.1');
    try {
      const error = errorFields(
        await rejection(
          run(appTester, 'searches.find_link', { authData: authData(`http://127.0.0.1:${port}`, KEY), inputData: { id: '1042' } }),
        ),
      );
      expect(error).toMatchObject({ code: 'network' });
      expect(String(error.message)).toMatch(/ECONNREFUSED|refused/i);
      expect(String(error.message)).not.toContain(KEY);
    } finally {
      nock.disableNetConnect();
    }
  });
});
