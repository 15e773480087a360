/** The nock contract checker itself: it refuses fixtures that break the document and passes good ones. */
import nock from 'nock';
import { NockContractError, failOnServedViolations, offContract, takeServedViolations } from './nock-contract';

const BASE = 'https://contract-check.test';
const API = `${BASE}/api/v1`;
const RATE = { 'RateLimit-Limit': '120', 'RateLimit-Remaining': '119', 'RateLimit-Reset': '60' };
const PROBLEM = { ...RATE, 'Content-Type': 'application/problem+json' };

const created = {
  id: '1042',
  slug: 'spring-sale',
  shortUrl: 'https://sho.rt/spring-sale',
  targetUrl: 'https://example.org/spring-sale',
  title: 'Spring sale',
  domain: null,
  active: true,
  clicks: 0,
  createdAt: '2026-03-01T09:30:00.000Z',
};
const link = { ...created, blocked: false, hasPassword: false, expiresAt: null };
const problem = (status: number, title: string) => ({
  type: 'https://shortlink.example/docs/api/errors#x',
  title,
  status,
  detail: `${title}.`,
});

/** The error a fixture definition throws, or undefined. */
function definitionError(define: () => unknown): NockContractError | undefined {
  try {
    define();
  } catch (error) {
    expect(error).toBeInstanceOf(NockContractError);
    return error as NockContractError;
  }
  return undefined;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('static replies are checked when defined', () => {
  test('good fixtures of every kind pass', () => {
    expect(definitionError(() => nock(API).post('/links').reply(201, created, RATE))).toBeUndefined();
    expect(definitionError(() => nock(API).get('/links/1042').reply(200, link, RATE))).toBeUndefined();
    expect(definitionError(() => nock(API).get('/links?limit=2').reply(200, { data: [link], nextCursor: null }, RATE))).toBeUndefined();
    expect(definitionError(() => nock(API).delete('/links/1042').reply(204, undefined, RATE))).toBeUndefined();
    expect(definitionError(() => nock(BASE).defaultReplyHeaders(RATE).get('/api/v1/links/7/stats').reply(200, {
      linkId: '7', totalClicks: 0, clicksByDay: [], topCountries: [], topDevices: [], topBrowsers: [], topReferrers: [],
    }))).toBeUndefined();
    expect(definitionError(() => nock(API).get('/me').reply(429, problem(429, 'Too many requests'), { ...PROBLEM, 'Retry-After': '12' }))).toBeUndefined();
    expect(definitionError(() => nock(API).get('/me').reply(503, problem(503, 'Unavailable'), PROBLEM))).toBeUndefined();
  });

  test('a created link with a 10th field', () => {
    const error = definitionError(() => nock(API).post('/links').reply(201, { ...created, blocked: false }, RATE));
    expect(error?.message).toContain('POST /api/v1/links → 201');
    expect(error?.message).toContain('createLink 201: body does not match the document');
    expect(error?.message).toContain('must NOT have additional properties');
    expect(error?.message).toMatch(/defined at test\/support\/nock-contract\.test\.ts:\d+/);
  });

  test('a 422 without errors', () => {
    const error = definitionError(() => nock(API).post('/links').reply(422, problem(422, 'Validation failed'), PROBLEM));
    expect(error?.message).toContain('POST /api/v1/links → 422');
    expect(error?.message).toContain("must have required property 'errors'");
  });

  test('a 429 without Retry-After', () => {
    const error = definitionError(() => nock(API).get('/links/1').reply(429, problem(429, 'Too many requests'), PROBLEM));
    expect(error?.message).toContain('GET /api/v1/links/1 → 429');
    expect(error?.message).toContain('header Retry-After is missing');
  });

  test('an answer without the RateLimit headers, or with a bad value', () => {
    expect(definitionError(() => nock(API).get('/links/1').reply(200, link))?.message).toContain('header RateLimit-Limit is missing');
    expect(definitionError(() => nock(API).get('/links/1').reply(200, link, { ...RATE, 'RateLimit-Reset': 'soon' }))?.message).toContain(
      'header RateLimit-Reset=soon',
    );
  });

  test('the wrong content type: a problem sent as application/json, a link as problem+json', () => {
    expect(definitionError(() => nock(API).get('/links/1').reply(404, problem(404, 'Not found'), RATE))?.message).toContain(
      'content type application/json is not one of application/problem+json',
    );
    expect(definitionError(() => nock(API).get('/links/1').reply(200, link, PROBLEM))?.message).toContain(
      'content type application/problem+json is not one of application/json',
    );
  });

  test('an undeclared status, an unknown operation, a body that is no JSON', () => {
    expect(definitionError(() => nock(API).get('/links/1').reply(409, problem(409, 'Conflict'), PROBLEM))?.message).toContain(
      'getLink answered 409, which the document does not declare',
    );
    expect(definitionError(() => nock(API).put('/links/1').reply(200, link, RATE))?.message).toContain(
      'PUT /api/v1/links/1 is no operation of the document',
    );
    expect(definitionError(() => nock(API).get('/links/1').reply(200, '{"id":', { ...RATE, 'Content-Type': 'application/json' }))?.message).toContain(
      'the body is not JSON',
    );
  });

  test('replies outside /api/v1/ are not the document’s business', () => {
    expect(definitionError(() => nock(BASE).get('/health').reply(200, 'ok'))).toBeUndefined();
    expect(definitionError(() => nock('https://rpc.example.test').post('/cli').reply(200, { id: 1 }))).toBeUndefined();
  });
});

describe('offContract', () => {
  test('exempts every reply of the scope, and only that scope', () => {
    const scope = offContract(nock(API), 'a proxy in front answers with HTML');
    expect(definitionError(() => scope.get('/me').reply(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }))).toBeUndefined();
    expect(definitionError(() => scope.get('/links').reply(200, { items: [] }))).toBeUndefined();
    expect(definitionError(() => nock(API).get('/me').reply(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }))).toBeDefined();
  });

  test('requires a reason', () => {
    expect(() => offContract(nock(API), '  ')).toThrow(/reason must say why/);
  });
});

describe('computed replies are checked when served', () => {
  test('a good computed reply passes, in both nock forms', async () => {
    nock(API).get('/links/1042').reply(200, () => link, RATE);
    nock(API).get('/me').reply(async () => [429, problem(429, 'Too many requests'), { ...PROBLEM, 'Retry-After': '1' }]);
    expect((await fetch(`${API}/links/1042`)).status).toBe(200);
    expect((await fetch(`${API}/me`)).status).toBe(429);
    expect(takeServedViolations()).toEqual([]);
  });

  test('a bad computed reply fails the request and is reported, even when the caller swallows the failure', async () => {
    nock(API).post('/links').reply(201, (_uri, body) => ({ ...created, ...(body as object), blocked: false }), RATE);
    const swallowed = await fetch(`${API}/links`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }).catch(
      (error: unknown) => error,
    );
    expect(swallowed).toBeInstanceOf(Error);
    const [violation, ...rest] = takeServedViolations();
    expect(rest).toEqual([]);
    expect(violation.message).toContain('POST /api/v1/links → 201');
    expect(violation.message).toContain('must NOT have additional properties');
  });

  test('the afterEach hook fails the test with what was served, then starts clean', async () => {
    nock(API).get('/me').reply(200, () => ({ id: '1' }), RATE);
    nock(API).get('/me').reply(200, () => ({ id: '2' }), RATE);
    await fetch(`${API}/me`).catch(() => undefined);
    await fetch(`${API}/me`).catch(() => undefined);
    expect(() => failOnServedViolations()).toThrow(/GET \/api\/v1\/me → 200[\s\S]*and 1 more served fixture violation/);
    expect(() => failOnServedViolations()).not.toThrow();
  });

  test('a full reply function is checked with the headers it returns; the query is part of the named path', async () => {
    nock(API)
      .get('/links')
      .query(true)
      .reply(function () {
        return [200, { data: [link], nextCursor: null }, { 'Content-Type': 'application/json' }];
      });
    await fetch(`${API}/links?limit=5`).catch(() => undefined);
    const [violation] = takeServedViolations();
    expect(violation.message).toContain('GET /api/v1/links?limit=5 → 200');
    expect(violation.message).toContain('header RateLimit-Limit is missing');
  });

  test('a callback-style reply function keeps working and is checked', async () => {
    nock(API)
      .get('/domains')
      .reply(200, (_uri, _body, callback) => callback(null, { data: [{ id: '1', hostname: 'go.example.org' }] }), RATE);
    await fetch(`${API}/domains`).catch(() => undefined);
    expect(takeServedViolations()[0].message).toContain("must have required property 'verified'");
  });

  test('a static reply on a RegExp path is checked when served, against the served path', async () => {
    nock(BASE).get(/\/api\/v1\/links\/\d+$/).reply(200, { ...link, clicks: -1 }, RATE);
    await fetch(`${API}/links/77`).catch(() => undefined);
    expect(takeServedViolations()[0].message).toContain('GET /api/v1/links/77 → 200');
  });
});
