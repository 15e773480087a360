/** The standalone axios transport maps HTTP to the Transport seam (docs/architecture.md). */
import nock from 'nock';
import { TransportFailure } from '../src/standalone/axios-transport';
import { createAxiosTransport } from '../src/index';
import type { TransportRequest } from '../src/index';
import { API, API_KEY, RATE_HEADERS, created, problem } from './helpers';
import { PROBLEM_JSON, offContract } from './nock-api';

/** What the core hands every transport besides the request itself: its limits and signal. */
const limits = () => ({ timeoutMs: 5_000, signal: AbortSignal.timeout(5_000), maxResponseBytes: 10 * 1024 * 1024 });
const get = (path: string): TransportRequest => ({ method: 'GET', url: `${API}${path}`, path, headers: { Accept: 'application/json' }, ...limits() });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('createAxiosTransport', () => {
  const transport = createAxiosTransport({ apiKey: API_KEY, timeoutMs: 200, userAgent: 'shortlink-core-test' });

  test('adds the Bearer header and serialises the JSON body', async () => {
    nock(API, { reqheaders: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'user-agent': 'shortlink-core-test' } })
      .post('/links', '{"targetUrl":"https://example.org"}')
      .reply(201, created({ id: '1' }), RATE_HEADERS);
    const response = await transport({
      method: 'POST',
      url: `${API}/links`,
      path: '/links',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: { targetUrl: 'https://example.org' },
      ...limits(),
    });
    expect(response).toMatchObject({ status: 201, body: { id: '1' } });
  });

  test('never throws for a status; headers come lower-case', async () => {
    nock(API)
      .get('/me')
      .reply(503, problem(503, 'Service unavailable', 'Down for maintenance.'), { ...RATE_HEADERS, ...PROBLEM_JSON, 'Retry-After': '3', 'RateLimit-Remaining': '0' });
    const response = await transport(get('/me'));
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.headers['ratelimit-remaining']).toBe('0');
  });

  test('the body is parsed JSON when it parses, else the raw text, else empty', async () => {
    offContract(nock(API), 'transport mechanics on paths that are no operation: every kind of body')
      .get('/a')
      .reply(200, '{"x":1}').get('/b').reply(502, '<html>bad gateway</html>').get('/c').reply(204).get('/d').reply(200, '{"broken');
    expect((await transport(get('/a'))).body).toEqual({ x: 1 });
    expect((await transport(get('/b'))).body).toBe('<html>bad gateway</html>');
    expect((await transport(get('/c'))).body).toBe('');
    expect((await transport(get('/d'))).body).toBe('{"broken');
  });

  test('a timeout throws a failure with a code and without the key', async () => {
    offContract(nock(API), 'transport mechanics: never served, the timeout fires first').get('/slow').delay(1000).reply(200, {});
    const error = await transport(get('/slow')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportFailure);
    expect(['ECONNABORTED', 'ETIMEDOUT']).toContain((error as TransportFailure).code);
    expect(JSON.stringify({ ...(error as object), m: (error as Error).message, s: (error as Error).stack })).not.toContain(API_KEY);
  });

  test('redirects are not followed (the core reports them)', async () => {
    offContract(nock(API), 'a redirect, which the document does not declare').get('/me').reply(302, '', { Location: 'https://elsewhere.example/' });
    expect((await transport(get('/me'))).status).toBe(302);
  });
});
