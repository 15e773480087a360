/** Every non-2xx answer and every failure becomes its typed error, with a message that reads alone. */
import nock from 'nock';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InputError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ShortLinkError,
  UnexpectedResponseError,
  ValidationError,
  createClient,
} from '../src/index';
import type { Transport } from '../src/index';
import { API_KEY, BASE_URL, fakeClock, problem } from './helpers';
import { api, offContract } from './nock-api';

function client(overrides: { maxRetries?: number; transport?: Transport } = {}) {
  const clock = fakeClock();
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, random: () => 0, maxRetries: 0, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<ShortLinkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ShortLinkError);
    return error as ShortLinkError;
  }
  throw new Error('expected a failure');
}

const PROBLEM_JSON = { 'Content-Type': 'application/problem+json' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('problem+json answers map to their classes', () => {
  test.each([
    [400, BadRequestError, 'bad_request', 'Malformed request', 'The request body is not valid JSON.'],
    [401, AuthenticationError, 'authentication', 'Unauthorized', 'The API key is missing or invalid.'],
    [403, ForbiddenError, 'forbidden', 'Plan without API access', 'API access requires the business plan or higher.'],
    [404, NotFoundError, 'not_found', 'Not found', 'No link with id 1042 exists.'],
    [409, ConflictError, 'conflict', 'Slug already taken', 'The slug spring-sale is already in use.'],
    [500, ServerError, 'server', 'Internal server error', 'The service failed to process the request.'],
    [405, BadRequestError, 'bad_request', 'Method not allowed', 'PUT is not supported.'],
  ])('%i → %p', async (status, ErrorClass, kind, title, detail) => {
    // PATCH declares every one of these statuses but 405, which stays a deliberate departure.
    (status === 405 ? offContract(api(), 'a status the document does not declare still maps to its class') : api())
      .patch('/links/1042')
      .reply(status, problem(status, title, detail), PROBLEM_JSON);
    const error = await failure(client().updateLink('1042', { title: 'New' }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ kind, status, title, detail, message: `${title}: ${detail}` });
    expect(error.type).toMatch(/^https:\/\/shortlink\.example\/docs\/api\/errors#/);
  });

  test('422 carries fieldErrors from the errors extension', async () => {
    api()
      .post('/links')
      .reply(
        422,
        problem(422, 'Validation failed', 'slug must match ^[A-Za-z0-9][A-Za-z0-9_-]*$.', {
          errors: [{ field: 'slug', message: 'slug must match ^[A-Za-z0-9][A-Za-z0-9_-]*$.' }],
        }),
        PROBLEM_JSON,
      );
    const error = await failure(client().createLink({ targetUrl: 'https://example.org', slug: 'bad slug' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Validation failed: slug must match ^[A-Za-z0-9][A-Za-z0-9_-]*$.');
    expect((error as ValidationError).fieldErrors).toEqual([{ field: 'slug', message: 'slug must match ^[A-Za-z0-9][A-Za-z0-9_-]*$.' }]);
  });

  test.each([
    ['pointer/detail', [{ pointer: '/targetUrl', detail: 'is required' }], [{ field: 'targetUrl', message: 'is required' }]],
    ['name/reason', [{ name: 'title', reason: 'too long' }], [{ field: 'title', message: 'too long' }]],
    ['path array', [{ path: ['domain', 'hostname'], message: 'unknown' }], [{ field: 'domain.hostname', message: 'unknown' }]],
    ['plain strings', ['something is off'], [{ field: '', message: 'something is off' }]],
    ['map of lists', { slug: ['taken', 'too short'], title: 'bad' }, [
      { field: 'slug', message: 'taken' },
      { field: 'slug', message: 'too short' },
      { field: 'title', message: 'bad' },
    ]],
    ['nothing usable', 42, []],
  ])('422 fieldErrors tolerate %s', async (_name, errors, expected) => {
    offContract(api(), 'other shapes of the errors list, without type and detail').post('/links').reply(422, { title: 'Validation failed', status: 422, errors });
    const error = await failure(client().createLink({ targetUrl: 'https://example.org' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual(expected);
  });

  test('422 without detail builds the message from the field errors', async () => {
    offContract(api(), 'a 422 with neither type, status nor detail')
      .post('/links')
      .reply(422, { title: 'Validation failed', errors: [{ field: 'slug', message: 'is taken' }] });
    const error = await failure(client().createLink({ targetUrl: 'https://example.org' }));
    expect(error.message).toBe('Validation failed: slug: is taken');
  });

  test('429 with maxRetries 0 is a RateLimitError with retryAfterMs', async () => {
    api()
      .get('/me')
      .reply(429, problem(429, 'Too many requests', 'The limit of 120 requests per 60 seconds is spent; retry in 12 seconds.'), {
        ...PROBLEM_JSON,
        'Retry-After': '12',
      });
    const error = await failure(client().getAccount());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 12_000 });
    expect(error.message).toBe('Too many requests: The limit of 120 requests per 60 seconds is spent; retry in 12 seconds.');
  });
});

describe('echoed service text is capped', () => {
  test('a 5,000-character detail and title are cut to 300 characters with …', async () => {
    const long = 'x'.repeat(5000);
    offContract(api(), 'deliberately huge problem texts (a 414 may echo the whole path)')
      .get('/links/1')
      .reply(414, { type: 'about:blank', title: `T${long}`, status: 414, detail: `D${long}` }, { 'Content-Type': 'application/problem+json' });
    const error = await failure(client().getLink('1'));
    expect(error.detail).toBe(`D${'x'.repeat(299)}…`);
    expect(error.title).toBe(`T${'x'.repeat(299)}…`);
    expect(error.message.length).toBeLessThan(700);
  });
});

describe('bodies that are not problem+json still give a clear message', () => {
  test('HTML from a proxy', async () => {
    offContract(api(), 'a proxy in front answers with HTML').get('/me').reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html' });
    const error = await failure(client().getAccount());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('Server error (502 Bad Gateway): the service answered with an HTML page instead of JSON.');
    expect(error.status).toBe(502);
  });

  test('empty body', async () => {
    offContract(api(), 'a 503 with an empty body').get('/me').reply(503, '');
    const error = await failure(client().getAccount());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('Server error (503 Service Unavailable): the service answered with an empty body.');
  });

  test('broken JSON', async () => {
    offContract(api(), 'broken JSON').get('/me').reply(500, '{"title": "Intern', { 'Content-Type': 'application/json' });
    expect((await failure(client().getAccount())).message).toBe(
      'Server error (500 Internal Server Error): the service answered with broken JSON.',
    );
  });

  test('plain text', async () => {
    offContract(api(), 'a plain-text 401').get('/me').reply(401, 'Unauthorized', { 'Content-Type': 'text/plain' });
    const error = await failure(client().getAccount());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe('Authentication failed (401 Unauthorized): the service answered with text instead of JSON: "Unauthorized".');
  });

  test('2xx with an HTML page is an UnexpectedResponseError', async () => {
    offContract(api(), 'an HTML page with 200').get('/links/1').reply(200, '<!DOCTYPE html><html></html>', { 'Content-Type': 'text/html' });
    const error = await failure(client().getLink('1'));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toBe('Unexpected response (200 OK) where a link was expected: the service answered with an HTML page instead of JSON.');
  });

  test('2xx list without a list is an UnexpectedResponseError', async () => {
    offContract(api(), 'a 200 list answer without a list').get('/links').reply(200, { hello: 'world' });
    const error = await failure(client().listLinks());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(/a page of links was expected: the answer holds no list of links\./);
  });

  test('a redirect is not followed and is explained', async () => {
    offContract(api(), 'a redirect, which the document does not declare').get('/me').reply(301, '', { Location: 'https://elsewhere.example/api/v1/me' });
    const error = await failure(client().getAccount());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(/301 Moved Permanently.*https:\/\/elsewhere\.example/);
  });
});

describe('network failures are classified by code', () => {
  // nock's replyWithError races axios (the mock socket re-emits the error after axios let go, which
  // crashes the worker now and then), so socket codes come from a throwing transport here.
  test.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'])('%s', async (code) => {
    const transport: Transport = async () => {
      throw Object.assign(new Error(`socket said ${code}`), { code });
    };
    const error = await failure(client({ transport }).getAccount());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'network', code });
    expect(error.message).toMatch(new RegExp(`^Network error \\(${code}\\) on GET short\\.example\\.com: `));
  });

  test('a timeout through the axios transport (nock delay)', async () => {
    offContract(api(), 'never served: the client times out first').get('/me').delay(500).reply(200, {});
    const clock = fakeClock();
    const slow = createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, maxRetries: 0, requestTimeoutMs: 50 });
    const error = await failure(slow.getAccount());
    expect(error).toBeInstanceOf(NetworkError);
    expect(['ECONNABORTED', 'ETIMEDOUT']).toContain((error as NetworkError).code);
    expect(`${error.message}${error.stack}`).not.toContain(API_KEY);
  });

  test('a real refused connection', async () => {
    nock.enableNetConnect('127.0.0.1');
    const refused = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, maxRetries: 0 });
    const error = await failure(refused.getAccount());
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    nock.disableNetConnect();
  });

  test('a host transport throwing cause.code is classified by it', async () => {
    const transport: Transport = async () => {
      throw Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNRESET' } });
    };
    expect(await failure(client({ transport }).getAccount())).toMatchObject({ code: 'ECONNRESET' });
  });

  test('a host helper that throws with an axios-like response is read as the answer', async () => {
    const transport: Transport = async () => {
      throw Object.assign(new Error('Request failed with status code 404'), {
        response: { status: 404, headers: { 'Content-Type': 'application/problem+json' }, data: problem(404, 'Not found', 'No link with id 1 exists.') },
      });
    };
    const error = await failure(client({ transport }).getLink('1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('Not found: No link with id 1 exists.');
  });
});

describe('the API key never leaves in an error', () => {
  const leaky = `your key ${API_KEY} is invalid`;

  test('a service echoing the key in title, detail and errors', async () => {
    api()
      .post('/links')
      .reply(
        422,
        { type: 'https://shortlink.example/docs/api/errors#validation-failed', title: `Bad ${API_KEY}`, status: 422, detail: leaky, errors: [{ field: 'x', message: leaky }] },
        PROBLEM_JSON,
      );
    const error = (await failure(client().createLink({ targetUrl: 'https://example.org' }))) as ValidationError;
    const everything = JSON.stringify({ m: error.message, d: error.detail, t: error.title, s: error.stack, f: error.fieldErrors });
    expect(everything).not.toContain(API_KEY);
    expect(error.detail).toBe('your key [redacted] is invalid');
  });

  test('a transport whose error carries the key and the Authorization header', async () => {
    const transport: Transport = async () => {
      throw Object.assign(new Error(`connect failed with Authorization: Bearer ${API_KEY}`), {
        code: 'ECONNRESET',
        cause: { config: { headers: { Authorization: `Bearer ${API_KEY}` } } },
      });
    };
    const error = await failure(client({ transport }).getAccount());
    expect(error.message).not.toContain(API_KEY);
    expect(error.stack).not.toContain(API_KEY);
    expect('cause' in error ? JSON.stringify((error as { cause?: unknown }).cause) ?? '' : '').not.toContain(API_KEY);
  });

  test('a Bearer token other than the key is redacted too', async () => {
    api().get('/me').reply(401, problem(401, 'Unauthorized', 'Header was Authorization: Bearer abc.def-123'), PROBLEM_JSON);
    expect((await failure(client().getAccount())).message).toBe('Unauthorized: Header was Authorization: Bearer [redacted].');
  });

  test('axios network failures through the standalone transport', async () => {
    nock.enableNetConnect('127.0.0.1');
    const refused = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, maxRetries: 0 });
    const error = await failure(refused.getAccount());
    nock.disableNetConnect();
    expect(`${error.message}${error.stack}${JSON.stringify(error)}`).not.toContain(API_KEY);
  });
});

describe('InputError', () => {
  test('names the field and sends nothing', async () => {
    const error = await failure(client().createLink({ targetUrl: 'ftp://example.org' }));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ kind: 'input', field: 'targetUrl', title: 'Invalid input' });
    expect(error.status).toBeUndefined();
    expect(nock.pendingMocks()).toEqual([]);
  });
});
