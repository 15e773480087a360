/**
 * Every operation through createAppTester against nock: the exact requests the app sends (method, path,
 * query, JSON body, bearer header) and how it shapes answers and errors.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { app, authData, newAppTester, run, runChoices, type AppTester } from './helpers';

/** Two JSON objects with the same fields and values, in any order. */
function sameJson(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
  return sorted(a) === sorted(b);
}

/** The body sent, plus the marker slug the core adds to a create without one (10 letters and digits). */
function withMarker(expected: Record<string, unknown>): (body: Record<string, unknown>) => boolean {
  return (body) => {
    const { slug, ...rest } = body;
    return typeof slug === 'string' && /^[A-Za-z0-9]{10}$/.test(slug) && sameJson(rest, expected);
  };
}

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
    expect(apiKey.helpText).toMatch(/\*\*API\*\*/);
    expect(apiKey.helpText).toMatch(/once/);
    // D002: a link to where the key is found, as a Markdown link (D008: no bare URL in help texts).
    expect(apiKey.helpText).toMatch(/\]\(https:\/\/[^)]+#connect-your-account\)/);
    expect(String(baseUrl.helpText)).toMatch(/`https:\/\/`/);
    expect(String(baseUrl.helpText)).not.toMatch(/localhost|http:/);
    expect(baseUrl).toMatchObject({ label: 'Base URL', required: true });
    // No default address: the service's real address is not known to the app.
    expect(baseUrl).not.toHaveProperty('default');
    expect(baseUrl).not.toHaveProperty('placeholder');
  });

  it('refuses a Base URL on this machine unless the local-development switch is on, before any request', async () => {
    const before = process.env.SHORTLINK_ZAPIER_LOCAL_DEV;
    delete process.env.SHORTLINK_ZAPIER_LOCAL_DEV;
    try {
      for (const baseUrl of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:8080']) {
        const error = errorFields(await rejection(run(appTester, 'authentication.test', { authData: { apiKey: KEY, baseUrl } })));
        expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
        expect(error.message).toMatch(/^Base URL points at this computer/);
        expect(error.message).toContain('Edit the Short Link connection');
      }
      const plain = errorFields(await rejection(run(appTester, 'authentication.test', { authData: { apiKey: KEY, baseUrl: 'http://short.test' } })));
      expect(plain.message).toMatch(/^Base URL must use https/);
    } finally {
      process.env.SHORTLINK_ZAPIER_LOCAL_DEV = before;
    }
    api().get(`${API}/me`).reply(200, ACCOUNT);
    expect(await run(appTester, 'authentication.test', { authData: auth })).toEqual(ACCOUNT); // https elsewhere: fine
  });

  it('tests the key with GET /me and labels the connection with name and email', async () => {
    api().get(`${API}/me`).reply(200, ACCOUNT);
    const result = await run(appTester, 'authentication.test', { authData: auth });
    expect(result).toEqual(ACCOUNT);
    const label = await run<string>(appTester, 'authentication.connectionLabel', { authData: auth, inputData: result });
    expect(label).toBe('Demo Business (demo@example.com)');
    expect(label).not.toContain(KEY);
  });

  it('a 401 while connecting says to check the key (no "reconnect" yet), with the service detail and without the key', async () => {
    api().get(`${API}/me`).reply(401, problem(401, 'Unauthorized', 'The API key is missing or invalid.'), PROBLEM_JSON);
    const error = await rejection(run(appTester, 'authentication.test', { authData: auth }));
    expect(error.name).not.toBe('ExpiredAuthError');
    expect(errorFields(error)).toMatchObject({ code: 'authentication', status: 401 });
    expect(error.message).toContain('The API key is missing or invalid.');
    expect(error.message).toContain('Check the API Key');
    expect(error.message).not.toMatch(/reconnect/i);
    expect(JSON.stringify(error) + error.message + error.stack).not.toContain(KEY);
  });

  it('a 401 in a step of a connected account is ExpiredAuthError: Zapier asks the user to reconnect', async () => {
    api().get(`${API}/links/42`).reply(401, problem(401, 'Unauthorized', 'The API key was revoked.'), PROBLEM_JSON);
    const error = await rejection(run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '42' } }));
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toContain('The API key was revoked.');
    expect(error.message).toMatch(/reconnect/i);
    expect(error.message + error.stack).not.toContain(KEY);
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
    expect(domain).toMatchObject({ code: 'domain_not_allowed', status: 403 });
    expect(domain.message).not.toMatch(/business plan/);
    expect(domain.message).toMatch(/verified custom domain/);

    api()
      .get(`${API}/me`)
      .reply(403, { ...problem(403, 'Forbidden', 'No API access for this account.'), type: 'https://shortlink.example/docs/api/errors#plan-required' }, PROBLEM_JSON);
    const plan = errorFields(await rejection(run(appTester, 'authentication.test', { authData: auth })));
    expect(plan).toMatchObject({ code: 'plan_required', status: 403 });
    expect(plan.message).toContain('No API access for this account.');
    // The advice once: the message is not the plan sentence twice.
    expect(String(plan.message).match(/business plan/g)).toHaveLength(1);
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
        expiresAt: '2099-12-31T23:59:59.000Z', // the core normalises to UTC milliseconds
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
        expiresAt: '2099-12-31T23:59:59Z',
        password: '',
      },
    });
    // The core's link record: all twelve fields, Short URL first; Expires At and Has Password come from what was sent.
    expect(result).toEqual({ ...created, blocked: false, hasPassword: false, expiresAt: '2099-12-31T23:59:59.000Z' });
    expect(Object.keys(result as object)).toEqual(['shortUrl', 'id', 'targetUrl', 'title', 'slug', 'domain', 'clicks', 'active', 'blocked', 'hasPassword', 'expiresAt', 'createdAt']);
  });

  it('reads Expires At strictly: unreadable or past is refused naming the field, before any request; no zone is the account\'s zone', async () => {
    const never = errorFields(await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', expiresAt: 'never' } })));
    expect(never).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(never.message).toMatch(/^Expires At must be a date and time/);
    expect(never.message).toContain('"never"');
    const past = errorFields(await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'https://example.org', expiresAt: '2020-01-01T00:00:00Z' } })));
    expect(past.message).toMatch(/^Expires At is in the past/);
    // 09:30 in Kolkata (+05:30) is 04:00 UTC; Has Password true when a password was sent.
    api().post(`${API}/links`, withMarker({ targetUrl: 'https://example.org/zoned', expiresAt: '2099-06-01T04:00:00.000Z', password: 'open sesame' })).reply(201, created);
    const zoned = await run<Record<string, unknown>>(appTester, 'creates.create_link', {
      authData: auth,
      inputData: { targetUrl: 'https://example.org/zoned', expiresAt: '2099-06-01 09:30', password: 'open sesame' },
      meta: { timezone: 'Asia/Kolkata' },
    });
    expect(zoned).toMatchObject({ expiresAt: '2099-06-01T04:00:00.000Z', hasPassword: true });
  });

  it('leaves the target URL untouched without UTM fields and sends no empty fields', async () => {
    api().post(`${API}/links`, withMarker({ targetUrl: 'https://example.org/a?b=c' })).reply(201, { ...created, targetUrl: 'https://example.org/a?b=c' });
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
    // The form's label, not the API's field name.
    expect(invalid.message).toContain('Title must be at most 200 characters.');
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
    expect(missing.message).toBe('"Target URL" is required. Enter a value or map one from an earlier step.');
    const broken = errorFields(
      await rejection(run(appTester, 'creates.create_link', { authData: auth, inputData: { targetUrl: 'not a url', utmSource: 'x' } })),
    );
    expect(broken.message).toMatch(/^Target URL .*absolute/); // "not a url" has a space: no host, so no https:// is added
    expect(broken.message).not.toMatch(/\(targetUrl\)|^url /);
  });
});

describe('rate limits', () => {
  it('waits out a short Retry-After itself and then succeeds', async () => {
    api().get(`${API}/links/1042`).reply(429, problem(429, 'Too many requests', 'Retry in 1 second.'), { ...PROBLEM_JSON, 'Retry-After': '1' });
    api().get(`${API}/links/1042`).reply(200, link);
    const result = await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '1042' } });
    expect(result).toEqual([link]);
  });

  it('turns a Retry-After above the 20 s cap into ThrottledError with that delay', async () => {
    api().get(`${API}/links/1042`).reply(429, problem(429, 'Too many requests', 'The limit of 120 requests per 60 seconds is spent; retry in 42 seconds.'), { ...PROBLEM_JSON, 'Retry-After': '42' });
    const error = await rejection(run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '1042' } }));
    expect(error.name).toBe('ThrottledError');
    expect(errorFields(error).delay).toBe(42);
  });

  it('declares a throttle of runs (not requests) per connection for the whole app: 60 runs of one or two requests a minute', () => {
    expect(app.throttle).toEqual({ window: 60, limit: 60, scope: ['auth'] });
  });
});

describe('update_link and delete_link', () => {
  it('sends only the filled fields, with null to remove the expiry', async () => {
    api().patch(`${API}/links/1042`, { title: 'Spring sale (extended)', active: false, expiresAt: null }).reply(200, { ...link, title: 'Spring sale (extended)', active: false });
    const result = await run(appTester, 'creates.update_link', {
      authData: auth,
      inputData: { link: '1042', title: 'Spring sale (extended)', active: 'false', removeExpiry: true, targetUrl: '', slug: '' },
    });
    expect(result).toMatchObject({ id: '1042', title: 'Spring sale (extended)', active: false });
  });

  it('rejects an expiry together with Remove Expiry, and a boolean it cannot read', async () => {
    const both = errorFields(
      await rejection(run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '1042', expiresAt: '2027-01-01T00:00:00Z', removeExpiry: 'yes' } })),
    );
    expect(both.message).toBe('Both "Expires At" and "Remove Expiry" are set: enter a new value or turn on "Remove Expiry", not both.');
    const unreadable = errorFields(await rejection(run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '1042', active: 'maybe' } })));
    expect(unreadable.message).toMatch(/^"Active" must be yes or no/);
    const nothing = errorFields(await rejection(run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '1042', title: '' } })));
    // The core's sentence (link.update), the same on n8n; never an API field name.
    expect(nothing.message).toMatch(/^Nothing to update: set at least one field/);
    expect(nothing.message).not.toMatch(/targetUrl|expiresAt/);
  });

  it('clears the title, sets and removes a password, and puts UTM fields on the link\'s current target URL', async () => {
    api().patch(`${API}/links/1042`, { title: '', password: 'open sesame' }).reply(200, { ...link, title: '', hasPassword: true });
    const cleared = await run<Record<string, unknown>>(appTester, 'creates.update_link', {
      authData: auth,
      inputData: { link: '1042', removeTitle: 'yes', password: 'open sesame' },
    });
    expect(cleared).toMatchObject({ title: '', hasPassword: true });
    expect(Object.keys(cleared)[0]).toBe('shortUrl');

    api().patch(`${API}/links/1042`, { password: null }).reply(200, { ...link, hasPassword: false });
    expect(await run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '1042', removePassword: true } })).toMatchObject({ hasPassword: false });

    api().get(`${API}/links/1042`).reply(200, { ...link, targetUrl: 'https://example.org/spring-sale?utm_source=old' });
    api().patch(`${API}/links/1042`, { targetUrl: 'https://example.org/spring-sale?utm_source=zapier&utm_medium=automation' }).reply(200, link);
    await run(appTester, 'creates.update_link', { authData: auth, inputData: { link: '1042', utmSource: 'zapier', utmMedium: 'automation' } });
  });

  it('deletes and reports the link it deleted; a link already gone is a success with Already Deleted, not an error', async () => {
    api().get(`${API}/links/1042`).reply(200, link);
    api().delete(`${API}/links/1042`).reply(204);
    const result = await run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: '1042' } });
    expect(result).toEqual({ shortUrl: link.shortUrl, id: '1042', targetUrl: link.targetUrl, title: link.title, deleted: true, alreadyDeleted: false });

    api().get(`${API}/links/77`).reply(404, problem(404, 'Not found', 'No link with id 77 exists.'), PROBLEM_JSON);
    expect(await run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: '77' } })).toEqual({
      shortUrl: null,
      id: '77',
      targetUrl: null,
      title: null,
      deleted: true,
      alreadyDeleted: true,
    });

    // Gone between the read and the delete (another run of the Zap): still a success, with what was read.
    api().get(`${API}/links/1042`).reply(200, link);
    api().delete(`${API}/links/1042`).reply(404, problem(404, 'Not found', 'No link with id 1042 exists.'), PROBLEM_JSON);
    expect(await run(appTester, 'creates.delete_link', { authData: auth, inputData: { link: '1042' } })).toMatchObject({ shortUrl: link.shortUrl, alreadyDeleted: true });
  });
});

describe('find_link', () => {
  it('finds by id, and answers an unknown id with no result', async () => {
    api().get(`${API}/links/1042`).reply(200, link);
    expect(await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '1042' } })).toEqual([link]);
    api().get(`${API}/links/9`).reply(404, problem(404, 'Not found', 'No link with id 9 exists.'), PROBLEM_JSON);
    expect(await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: '9' } })).toEqual([]);
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
    api().get(`${API}/links/1042`).reply(200, link); // Get reads the link it found, with its current clicks
    const found = await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: 'https://GO.example.org/spring-sale/', slug: 'ignored' } });
    expect(found).toEqual([link]);
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [twin, link], nextCursor: null });
    expect(await run(appTester, 'searches.get_link', { authData: auth, inputData: { link: 'https://other.example.net/spring-sale' } })).toEqual([]);
  });

  it('names the Link field when it is neither an ID nor a short URL, before any request', async () => {
    const error = errorFields(await rejection(run(appTester, 'searches.get_link', { authData: auth, inputData: { link: 'sho.rt/spring-sale' } })));
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(error.message).toMatch(/^"Link" must be a link's ID .* or its full short URL/);
  });

  it('asks for one of the search fields', async () => {
    const error = errorFields(await rejection(run(appTester, 'searches.find_link', { authData: auth, inputData: {} })));
    // The form's labels, never the API's field names; one way to name a link: its target or its slug.
    expect(error.message).toBe('Enter a "Target URL" or a "Slug" to search for.');
  });
});

describe('link_stats', () => {
  it('answers an unknown link with no result, as a search does', async () => {
    api().get(`${API}/links/77`).reply(404, problem(404, 'Not found', 'No link with id 77 exists.'), PROBLEM_JSON);
    expect(await run(appTester, 'searches.link_stats', { authData: auth, inputData: { link: '77' } })).toEqual([]);
  });

  it('returns the statistics record of the core: the short URL and title of the link, the totals, the lists as line items', async () => {
    const stats = {
      linkId: '1042',
      totalClicks: 9,
      clicksByDay: [{ date: '2026-03-01', clicks: 4 }, { date: '2026-03-03', clicks: 5 }],
      topCountries: [{ label: 'DE', clicks: 6 }, { label: 'US', clicks: 3 }],
      topDevices: [{ label: 'mobile', clicks: 9 }],
      topBrowsers: [{ label: 'Safari', clicks: 9 }],
      topReferrers: [],
    };
    api().get(`${API}/links/1042`).reply(200, link);
    api().get(`${API}/links/1042/stats`).reply(200, stats);
    const [result] = (await run(appTester, 'searches.link_stats', { authData: auth, inputData: { link: '1042' } })) as Array<Record<string, unknown>>;
    expect(Object.keys(result!).slice(0, 2)).toEqual(['shortUrl', 'title']);
    const { linkId, ...lists } = stats;
    expect(result).toEqual({ shortUrl: link.shortUrl, title: link.title, linkId, ...lists });
  });
});

describe('dropdown sources', () => {
  it('lists the verified domains', async () => {
    const domains = [{ id: '7', hostname: 'go.example.org', verified: true, createdAt: '2026-01-15T08:00:00.000Z' }];
    api().get(`${API}/domains`).reply(200, { data: domains });
    expect(await run(appTester, 'triggers.domain_list', { authData: auth })).toEqual(domains);
  });

  it('pages the links dropdown with the list cursor as the paging token, each choice labelled "Title (short URL)"', async () => {
    const second = { ...link, id: '1041', title: '' };
    api().get(`${API}/links`).query({ limit: '100' }).reply(200, { data: [link], nextCursor: 'c2' });
    api().get(`${API}/links`).query({ limit: '100', cursor: 'c2' }).reply(200, { data: [second], nextCursor: null });
    // Random slugs alone are unreadable: the title first; without a title, the short URL.
    const first = await runChoices<{ paging_token: string | null }>(appTester, 'creates.update_link', 'link', { authData: auth, meta: {} });
    expect(first).toEqual({ results: [{ id: link.id, label: `${link.title} (${link.shortUrl})` }], paging_token: expect.any(String) });
    // "Load more": Zapier hands the token back (the client's continuation of cursor c2); the last page says there is no more.
    expect(await runChoices(appTester, 'creates.update_link', 'link', { authData: auth, meta: { paging_token: first.paging_token } })).toEqual({
      results: [{ id: '1041', label: second.shortUrl }],
      paging_token: null,
    });
  });

  it('the same dropdown serves every field that chooses a link', () => {
    const choicesOf = (owner: Record<string, { operation: { inputFields: Array<{ key: string; choices?: unknown }> } }>, name: string, key: string) =>
      owner[name]!.operation.inputFields.find((field) => field.key === key)?.choices;
    const shared = choicesOf(app.creates as never, 'update_link', 'link');
    expect(shared).toBeDefined();
    expect(choicesOf(app.creates as never, 'delete_link', 'link')).toBe(shared);
    expect(choicesOf(app.searches as never, 'link_stats', 'link')).toBe(shared);
    expect(choicesOf(app.triggers as never, 'link_clicks', 'linkIds')).toBe(shared);
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
          run(appTester, 'searches.get_link', { authData: authData(`http://127.0.0.1:${port}`, KEY), inputData: { link: '1042' } }),
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
