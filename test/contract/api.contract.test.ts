/**
 * Contract tests: the sandbox over real HTTP, every answer (successes and every error status)
 * checked against the OpenAPI document, and the RateLimit-* headers on all of them.
 */
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { type Answer, documentedResponses, document, exercised, expectDocumented, type OperationRef } from './openapi-contract';

const LINKS: OperationRef = { path: '/links', method: 'get' };
const CREATE: OperationRef = { path: '/links', method: 'post' };
const GET: OperationRef = { path: '/links/{id}', method: 'get' };
const UPDATE: OperationRef = { path: '/links/{id}', method: 'patch' };
const DELETE: OperationRef = { path: '/links/{id}', method: 'delete' };
const STATS: OperationRef = { path: '/links/{id}/stats', method: 'get' };
const DOMAINS: OperationRef = { path: '/domains', method: 'get' };
const ME: OperationRef = { path: '/me', method: 'get' };
const OPENAPI: OperationRef = { path: '/openapi.json', method: 'get' };

interface Call {
  operation: OperationRef;
  url: string; // relative to /api/v1
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

let sandbox: Sandbox;
let proKey: string;
let otherKey: string;
let otherLinkId: string;

async function send(call: Call, apiKey: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (apiKey !== undefined) headers.Authorization = `Bearer ${apiKey}`;
  let body: string | undefined;
  if (call.rawBody !== undefined || call.body !== undefined) {
    headers['Content-Type'] = call.contentType ?? 'application/json';
    body = call.rawBody ?? JSON.stringify(call.body);
  }
  const response = await fetch(`${sandbox.baseUrl}/api/v1${call.url}`, { method: call.operation.method.toUpperCase(), headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function expectRateLimitHeaders(answer: Answer): void {
  for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
    expect(answer.headers.get(name)).toMatch(/^\d+$/);
  }
}

/** Sends, checks status, contract and RateLimit headers; returns the parsed body. */
async function expectAnswer(call: Call, apiKey: string | undefined, status: number) {
  const answer = await send(call, apiKey);
  if (answer.status !== status) throw new Error(`${call.operation.method} ${call.url}: expected ${status}, got ${answer.status}: ${answer.text}`);
  expectRateLimitHeaders(answer);
  if (status >= 400) expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return expectDocumented(call.operation, answer);
}

async function createLink(body: Record<string, unknown>) {
  return expectAnswer({ operation: CREATE, url: '/links', body }, sandbox.apiKey, 201);
}

/** One well-formed request per operation, for the error matrices (401, 403, 429, 5xx). */
function everyOperation(linkId: string): Call[] {
  return [
    { operation: LINKS, url: '/links' },
    { operation: CREATE, url: '/links', body: { targetUrl: 'https://example.org/matrix' } },
    { operation: GET, url: `/links/${linkId}` },
    { operation: UPDATE, url: `/links/${linkId}`, body: { title: 'Matrix' } },
    { operation: DELETE, url: `/links/${linkId}` },
    { operation: STATS, url: `/links/${linkId}/stats` },
    { operation: DOMAINS, url: '/domains' },
    { operation: ME, url: '/me' },
  ];
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowSeconds: 60 } });
  proKey = sandbox.createAccount({ name: 'Pro Customer', email: 'pro@example.com', plan: 'pro' }).apiKey;
  const other = sandbox.createAccount({ name: 'Other Business', email: 'other@example.com', plan: 'enterprise' });
  otherKey = other.apiKey;
  const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${otherKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetUrl: 'https://example.org/other' }),
  });
  otherLinkId = ((await response.json()) as { id: string }).id;
});

afterAll(async () => {
  await sandbox.close();
});

describe('successes', () => {
  test('openapi.json is the document, without a key', async () => {
    const body = await expectAnswer({ operation: OPENAPI, url: '/openapi.json' }, undefined, 200);
    expect(body).toEqual(document);
  });

  test('createLink answers 201 with exactly the nine fields, defaults applied', async () => {
    const link = await createLink({ targetUrl: 'https://example.org/contract?x=1' });
    expect(Object.keys(link).sort()).toEqual(['active', 'clicks', 'createdAt', 'domain', 'id', 'shortUrl', 'slug', 'targetUrl', 'title']);
    expect(link).toMatchObject({ title: '', domain: null, active: true, clicks: 0, targetUrl: 'https://example.org/contract?x=1' });
    expect(link.slug).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(link.shortUrl).toBe(`${sandbox.baseUrl}/${link.slug}`);
  });

  test('createLink on a verified custom domain uses that host', async () => {
    const link = await createLink({ targetUrl: 'https://example.org/custom', slug: 'contract-custom', domain: 'go.example.org', title: 'Custom' });
    expect(link).toMatchObject({ domain: 'go.example.org', shortUrl: 'https://go.example.org/contract-custom', title: 'Custom' });
  });

  test('getLink, updateLink, getLinkStats, deleteLink', async () => {
    const created = await createLink({ targetUrl: 'https://example.org/lifecycle', slug: 'contract-lifecycle' });
    const full = await expectAnswer({ operation: GET, url: `/links/${created.id}` }, sandbox.apiKey, 200);
    expect(Object.keys(full)).toHaveLength(12);
    expect(full).toMatchObject({ ...created, blocked: false, hasPassword: false, expiresAt: null });

    const updated = await expectAnswer(
      { operation: UPDATE, url: `/links/${created.id}`, body: { title: 'Renamed', expiresAt: '2030-01-01T01:00:00+01:00', password: 'open sesame', active: false } },
      sandbox.apiKey,
      200,
    );
    expect(updated).toMatchObject({ title: 'Renamed', expiresAt: '2030-01-01T00:00:00.000Z', hasPassword: true, active: false });
    const cleared = await expectAnswer(
      { operation: UPDATE, url: `/links/${created.id}`, body: { expiresAt: null, password: null } },
      sandbox.apiKey,
      200,
    );
    expect(cleared).toMatchObject({ expiresAt: null, hasPassword: false, title: 'Renamed' });

    const stats = await expectAnswer({ operation: STATS, url: `/links/${created.id}/stats` }, sandbox.apiKey, 200);
    expect(stats).toEqual({ linkId: created.id, totalClicks: 0, clicksByDay: [], topCountries: [], topDevices: [], topBrowsers: [], topReferrers: [] });

    await expectAnswer({ operation: DELETE, url: `/links/${created.id}` }, sandbox.apiKey, 204);
    await expectAnswer({ operation: GET, url: `/links/${created.id}` }, sandbox.apiKey, 404);
  });

  test('seeded stats have clicks', async () => {
    const [seeded] = sandbox.links(sandbox.demoAccountId).filter((l) => l.slug === 'spring-sale');
    const stats = await expectAnswer({ operation: STATS, url: `/links/${seeded.id}/stats` }, sandbox.apiKey, 200);
    expect(stats.totalClicks).toBeGreaterThan(0);
    expect(stats.totalClicks).toBe(seeded.clicks);
  });

  test('listLinks pages newest first through an opaque cursor, and matches the server state', async () => {
    const seen: Array<{ id: string; createdAt: string }> = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const body = await expectAnswer({ operation: LINKS, url: `/links${query}` }, sandbox.apiKey, 200);
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data);
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    const expected = sandbox.links(sandbox.demoAccountId);
    expect(seen.map((l) => l.id)).toEqual(expected.map((l) => l.id));
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && BigInt(a.id) > BigInt(b.id))).toBe(true);
    }
    const firstPage = await expectAnswer({ operation: LINKS, url: '/links' }, sandbox.apiKey, 200);
    expect(firstPage.data.length).toBe(Math.min(20, expected.length));
  });

  test('listDomains lists the verified domains only', async () => {
    sandbox.addDomain(sandbox.demoAccountId, 'pending.example.net', false);
    const body = await expectAnswer({ operation: DOMAINS, url: '/domains' }, sandbox.apiKey, 200);
    expect(body.data.map((d: { hostname: string }) => d.hostname)).toEqual(['go.example.org']);
  });

  test('getAccount shows plan and usage', async () => {
    const body = await expectAnswer({ operation: ME, url: '/me' }, sandbox.apiKey, 200);
    expect(body).toMatchObject({ id: sandbox.demoAccountId, plan: { name: 'business', apiAccess: true } });
    expect(body.usage.links).toBe(sandbox.links(sandbox.demoAccountId).length);
  });
});

describe('errors', () => {
  test('400 for a body that is not JSON', async () => {
    const id = (await createLink({ targetUrl: 'https://example.org/400' })).id;
    const problem = await expectAnswer({ operation: CREATE, url: '/links', rawBody: '{"targetUrl":' }, sandbox.apiKey, 400);
    expect(problem.detail).toMatch(/not valid JSON/);
    await expectAnswer({ operation: UPDATE, url: `/links/${id}`, rawBody: 'title=x', contentType: 'application/x-www-form-urlencoded' }, sandbox.apiKey, 400);
    await expectAnswer({ operation: CREATE, url: '/links', rawBody: '' }, sandbox.apiKey, 400);
    // Only POST and PATCH take a body; DELETE ignores one (the document declares no 400 there).
    await expectAnswer({ operation: DELETE, url: `/links/${id}`, rawBody: '{"broken' }, sandbox.apiKey, 204);
  });

  test('401 for a missing or unknown key on every operation', async () => {
    for (const call of everyOperation('1')) {
      const missing = await expectAnswer(call, undefined, 401);
      expect(missing.detail).toMatch(/missing/);
      await expectAnswer(call, 'sl_not-a-key', 401);
    }
  });

  test('403 for a plan without API access on every operation', async () => {
    for (const call of everyOperation('1')) {
      const problem = await expectAnswer(call, proKey, 403);
      expect(problem.detail).toMatch(/API access requires the business plan or higher/);
    }
  });

  test('403 for a domain that is not a verified domain of the account', async () => {
    sandbox.addDomain(sandbox.demoAccountId, 'unverified.example.net', false);
    for (const domain of ['unverified.example.net', 'nobody.example.com']) {
      const problem = await expectAnswer({ operation: CREATE, url: '/links', body: { targetUrl: 'https://example.org/x', domain } }, sandbox.apiKey, 403);
      expect(problem.detail).toContain(domain);
    }
  });

  test("404 for unknown ids and for another account's ids", async () => {
    for (const id of ['999999', otherLinkId, 'not-numeric']) {
      await expectAnswer({ operation: GET, url: `/links/${id}` }, sandbox.apiKey, 404);
      await expectAnswer({ operation: UPDATE, url: `/links/${id}`, body: { title: 'x' } }, sandbox.apiKey, 404);
      await expectAnswer({ operation: DELETE, url: `/links/${id}` }, sandbox.apiKey, 404);
      await expectAnswer({ operation: STATS, url: `/links/${id}/stats` }, sandbox.apiKey, 404);
    }
    // The other account's link is untouched.
    await expectAnswer({ operation: GET, url: `/links/${otherLinkId}` }, otherKey, 200);
  });

  test('409 for a slug taken on the same domain, not on another', async () => {
    await createLink({ targetUrl: 'https://example.org/a', slug: 'contract-taken' });
    const problem = await expectAnswer({ operation: CREATE, url: '/links', body: { targetUrl: 'https://example.org/b', slug: 'contract-taken' } }, sandbox.apiKey, 409);
    expect(problem.detail).toContain('contract-taken');
    await createLink({ targetUrl: 'https://example.org/c', slug: 'contract-taken', domain: 'go.example.org' });
    const other = await createLink({ targetUrl: 'https://example.org/d' });
    await expectAnswer({ operation: UPDATE, url: `/links/${other.id}`, body: { slug: 'contract-taken' } }, sandbox.apiKey, 409);
  });

  test('422 names the field: missing targetUrl, bad values, unknown fields, bad paging', async () => {
    const missing = await expectAnswer({ operation: CREATE, url: '/links', body: { title: 'No target' } }, sandbox.apiKey, 422);
    expect(missing.detail).toBe('targetUrl is required.');
    expect(missing.errors).toEqual([{ field: 'targetUrl', message: 'targetUrl is required.' }]);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ targetUrl: 'ftp://example.org/file' }, 'targetUrl'],
      [{ targetUrl: 'not a url' }, 'targetUrl'],
      [{ targetUrl: 'https://example.org', slug: 'has space' }, 'slug'],
      [{ targetUrl: 'https://example.org', title: 'x'.repeat(201) }, 'title'],
      [{ targetUrl: 'https://example.org', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ targetUrl: 'https://example.org', password: 'abc' }, 'password'],
      [{ targetUrl: 'https://example.org', colour: 'red' }, 'colour'],
      [{ targetUrl: 42 }, 'targetUrl'],
    ];
    for (const [body, field] of cases) {
      const problem = await expectAnswer({ operation: CREATE, url: '/links', body }, sandbox.apiKey, 422);
      expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(problem.detail).toContain(field);
    }
    const id = (await createLink({ targetUrl: 'https://example.org/422' })).id;
    const empty = await expectAnswer({ operation: UPDATE, url: `/links/${id}`, body: {} }, sandbox.apiKey, 422);
    expect(empty.errors[0].field).toBe('body');
    const blocked = await expectAnswer({ operation: UPDATE, url: `/links/${id}`, body: { blocked: false } }, sandbox.apiKey, 422);
    expect(blocked.errors[0].field).toBe('blocked');
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'cursor=not-a-cursor']) {
      const problem = await expectAnswer({ operation: LINKS, url: `/links?${query}` }, sandbox.apiKey, 422);
      expect(problem.detail).toContain(query.split('=')[0]);
    }
  });

  test('5xx problems via fault injection on every operation', async () => {
    sandbox.setFaults({ errorRate: 1, randomSeed: 7 });
    try {
      const statuses = new Set<number>();
      for (let round = 0; round < 4; round++) {
        for (const call of everyOperation('1')) {
          const answer = await send(call, sandbox.apiKey);
          expect([500, 502, 503]).toContain(answer.status);
          expectRateLimitHeaders(answer);
          expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expectDocumented(call.operation, answer);
          statuses.add(answer.status);
        }
      }
      expect(statuses.size).toBeGreaterThan(1);
      // The document itself is not subject to faults.
      await expectAnswer({ operation: OPENAPI, url: '/openapi.json' }, undefined, 200);
    } finally {
      sandbox.setFaults(undefined);
    }
  });

  test('unknown paths under /api/v1 are 404 problems with the RateLimit headers', async () => {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/nothing-here`, { headers: { Authorization: `Bearer ${sandbox.apiKey}` } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expectRateLimitHeaders({ status: response.status, headers: response.headers, text: await response.text() });
  });
});

describe('429', () => {
  let limited: Sandbox;
  const original = () => sandbox;

  beforeAll(async () => {
    limited = await startSandbox({ rateLimit: { limit: 2, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  test('past the limit every operation answers 429 with Retry-After; the key and the client have separate buckets', async () => {
    const main = original();
    sandbox = limited;
    try {
      const link = limited.links(limited.demoAccountId)[0];
      await expectAnswer({ operation: ME, url: '/me' }, limited.apiKey, 200);
      const last = await send({ operation: ME, url: '/me' }, limited.apiKey);
      expect(last.status).toBe(200);
      expect(last.headers.get('RateLimit-Remaining')).toBe('0');
      for (const call of everyOperation(link.id)) {
        const answer = await send(call, limited.apiKey);
        expect(answer.status).toBe(429);
        expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0);
        expectRateLimitHeaders(answer);
        expectDocumented(call.operation, answer);
      }
      // Requests without a known key count against the client's bucket, not the key's.
      await expectAnswer({ operation: OPENAPI, url: '/openapi.json' }, undefined, 200);
      await expectAnswer({ operation: ME, url: '/me' }, undefined, 401);
      const storm = await send({ operation: OPENAPI, url: '/openapi.json' }, undefined);
      expect(storm.status).toBe(429);
      expectDocumented(OPENAPI, storm);
      expect(limited.links(limited.demoAccountId).some((l) => l.targetUrl === 'https://example.org/matrix')).toBe(false);
    } finally {
      sandbox = main;
    }
  });

  test('rateLimitStormRate answers 429 although requests are left', async () => {
    sandbox.setFaults({ rateLimitStormRate: 1 });
    try {
      const answer = await send({ operation: ME, url: '/me' }, sandbox.apiKey);
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('RateLimit-Remaining'))).toBeGreaterThan(0);
      expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0);
      expectDocumented(ME, answer);
    } finally {
      sandbox.setFaults(undefined);
    }
  });
});

test('every response the document declares was exercised', () => {
  expect([...exercised].sort()).toEqual(documentedResponses());
});
