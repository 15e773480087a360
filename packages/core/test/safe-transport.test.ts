/**
 * The standalone client against servers with the habits of real networks (test/support/hostile-servers.ts):
 * no redirect is followed with the key, every call has a deadline, a stop signal stops it, huge answers are
 * refused, an echoed key never comes back out, and input that cannot be sent is refused naming its field.
 */
import { CancelledError, DeadlineError, InputError, NetworkError, RateLimitError, UnexpectedResponseError, createClient } from '../src/index';
import { buildCampaignUrl } from '../src/faces/operations';
import { createFetchTransport, readBodyText } from '../src/faces/host';
import { Readable } from 'node:stream';
import type { StandaloneClientOptions, Transport } from '../src/index';
import {
  startEchoingServer,
  startHugeAnswerServer,
  startRecordingServer,
  startRedirectingServer,
  startTricklingServer,
  serverPool,
} from '../../../test/support/hostile-servers';

const KEY = 'sk_live_SAFE_TRANSPORT_KEY_123456';
const { track, closeAll } = serverPool();
afterEach(closeAll);

/** The two transports the core ships: axios (standalone default) and fetch (n8n's credential test). */
const TRANSPORTS = {
  axios: (options: StandaloneClientOptions) => createClient(options),
  fetch: (options: StandaloneClientOptions) => createClient({ ...options, transport: createFetchTransport({ apiKey: options.apiKey ?? '' }) }),
};
const eachTransport = describe.each(Object.entries(TRANSPORTS));

const elapsed = async (run: () => Promise<unknown>) => {
  const started = Date.now();
  const outcome = await run().catch((error: unknown) => error);
  return { outcome, ms: Date.now() - started };
};

eachTransport('%s transport: redirects are never followed', (_name, makeClient) => {
  test.each([301, 302, 307, 308])('a %i to another origin is an error naming the Location; the other origin sees nothing', async (status) => {
    const other = await track(startRecordingServer('127.0.0.2'));
    const redirecting = await track(startRedirectingServer(other.origin, status));
    const client = makeClient({ baseUrl: redirecting.origin, apiKey: KEY, maxRetries: 0 });

    for (const call of [() => client.getLink('42'), () => client.createLink({ targetUrl: 'https://example.org/x' })]) {
      const error = (await call().catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toContain(`the service redirected to ${other.origin}/api/v1/links`);
      expect(error.message).toMatch(/check the base URL/);
    }
    expect(other.calls).toEqual([]);
    expect(redirecting.calls.map((call) => call.method)).toEqual(['GET', 'POST']);
  });
});

eachTransport('%s transport: a server that trickles bytes', (_name, makeClient) => {
  test('is given up at the request time limit (no idle timeout ever fires)', async () => {
    const trickling = await track(startTricklingServer(50));
    const client = makeClient({ baseUrl: trickling.origin, apiKey: KEY, requestTimeoutMs: 800, maxRetries: 0 });
    const { outcome, ms } = await elapsed(() => client.listLinks());
    expect(outcome).toBeInstanceOf(NetworkError);
    expect((outcome as NetworkError).code).toBe('ETIMEDOUT');
    expect((outcome as Error).message).toMatch(/no complete answer within 0\.8 s/);
    expect(ms).toBeLessThan(10_000); // without the limit it would never end
  });
});

describe('every call has a deadline', () => {

  test('retries of a slow GET stop at the call time limit', async () => {
    const trickling = await track(startTricklingServer(50));
    const client = createClient({ baseUrl: trickling.origin, apiKey: KEY, requestTimeoutMs: 500, callTimeoutMs: 1_200, maxRetries: 10 });
    const { outcome, ms } = await elapsed(() => client.getAccount());
    expect(outcome).toBeInstanceOf(Error);
    expect(trickling.calls.length).toBeLessThanOrEqual(3);
    expect(ms).toBeLessThan(10_000);
  });

  test('a transport that never answers (and ignores the signal) cannot hold the call or the calls behind it', async () => {
    const hanging: Transport = () => new Promise(() => undefined);
    const client = createClient({ baseUrl: 'https://short.example.com', transport: hanging, requestTimeoutMs: 300, callTimeoutMs: 500, maxRetries: 0 });
    // The first call is the pacer's probe: the others queue behind it, and none may wait past its own limit.
    const { outcome, ms } = await elapsed(() => Promise.allSettled([client.getAccount(), client.getLink('1'), client.listDomains()]));
    const reasons = (outcome as PromiseSettledResult<unknown>[]).map((result) => (result as PromiseRejectedResult).reason as Error);
    expect(reasons[0]).toBeInstanceOf(NetworkError);
    expect((reasons[0] as NetworkError).code).toBe('ETIMEDOUT');
    for (const reason of reasons) expect([NetworkError, DeadlineError].some((kind) => reason instanceof kind)).toBe(true);
    expect(ms).toBeLessThan(5_000);
  });

  test('a rate-limit wait longer than what is left of the call is a RateLimitError with the wait, not a long sleep', async () => {
    let calls = 0;
    const limited: Transport = async () => {
      calls += 1;
      return { status: 429, headers: { 'retry-after': '20' }, body: { title: 'Too many requests', status: 429 } };
    };
    const client = createClient({ baseUrl: 'https://short.example.com', transport: limited, callTimeoutMs: 5_000 });
    const { outcome, ms } = await elapsed(() => client.getAccount());
    expect(outcome).toBeInstanceOf(RateLimitError);
    expect((outcome as RateLimitError).retryAfterMs).toBe(20_000);
    expect((outcome as Error).message).toMatch(/longer than this call may still wait/);
    expect(calls).toBe(1);
    expect(ms).toBeLessThan(2_000);
  });

  test('backoff that would not fit in what is left of the call is not slept: the last failure comes back', async () => {
    let calls = 0;
    const slow: Transport = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 250));
      return { status: 503, headers: {}, body: { title: 'Unavailable', status: 503 } };
    };
    const client = createClient({ baseUrl: 'https://short.example.com', transport: slow, callTimeoutMs: 700, maxRetries: 20, random: () => 0 });
    const { outcome, ms } = await elapsed(() => client.getAccount());
    expect((outcome as Error).message).toMatch(/503 Service Unavailable/);
    expect(calls).toBeLessThanOrEqual(3);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('reading a body', () => {
  test('stops a trickling stream when the signal fires, whatever the HTTP helper does with its own signal', async () => {
    const stream = new Readable({ read() {} });
    stream.push('{"data":[');
    const timer = setInterval(() => stream.push(' '), 20);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('time is up')), 150);
    try {
      await expect(readBodyText(stream, 1024 * 1024, controller.signal)).rejects.toThrow('time is up');
      expect(stream.destroyed).toBe(true);
    } finally {
      clearInterval(timer);
    }
  });
});

describe('cancellation', () => {
  test('stopping the run ends a call that waits for the rate limit, without another request', async () => {
    const controller = new AbortController();
    let calls = 0;
    const limited: Transport = async () => {
      calls += 1;
      return { status: 200, headers: { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '50' }, body: { name: 'x' } };
    };
    const client = createClient({ baseUrl: 'https://short.example.com', transport: limited, signal: controller.signal });
    await client.getAccount(); // spends the budget: the next call must wait about 50 s
    setTimeout(() => controller.abort(), 200);
    const { outcome, ms } = await elapsed(() => client.getAccount());
    expect(outcome).toBeInstanceOf(CancelledError);
    expect(calls).toBe(1);
    expect(ms).toBeLessThan(5_000);
  });

  test('stopping the run aborts a request in flight', async () => {
    const trickling = await track(startTricklingServer(50));
    const controller = new AbortController();
    const client = createClient({ baseUrl: trickling.origin, apiKey: KEY, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const { outcome, ms } = await elapsed(() => client.listLinks());
    expect(outcome).toBeInstanceOf(CancelledError);
    expect(ms).toBeLessThan(5_000);
  });
});

describe('a 429 storm with Retry-After 0 or in the past', () => {
  test.each(['0', '-5', 'Thu, 01 Jan 1970 00:00:00 GMT'])('Retry-After %s still spaces the retries out', async (retryAfter) => {
    const sleeps: number[] = [];
    const limited: Transport = async () => ({ status: 429, headers: { 'retry-after': retryAfter }, body: { title: 'Too many requests', status: 429 } });
    const client = createClient({
      baseUrl: 'https://short.example.com',
      transport: limited,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await expect(client.getAccount()).rejects.toBeInstanceOf(RateLimitError);
    // Backoff (150, 300, 600 ms less the moment that passed since the 429), never 0.
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, attempt) => expect(ms).toBeGreaterThan(150 * 2 ** attempt - 50));
  });
});

eachTransport('%s transport: answers larger than 10 MB are refused while reading', (_name, makeClient) => {
  test('a 30 MB list is not read whole: a clear error, no retry', async () => {
    const huge = await track(startHugeAnswerServer(30));
    const client = makeClient({ baseUrl: huge.origin, apiKey: KEY });
    const error = (await client.listLinks().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(/larger than 10 MB/);
    expect(huge.calls).toHaveLength(1);
  });
});

eachTransport('%s transport: the key never comes back out of an error', (_name, makeClient) => {
  test('a key pasted with a trailing newline is scrubbed as sent (trimmed), also from the problem type', async () => {
    const echoing = await track(startEchoingServer());
    const client = makeClient({ baseUrl: echoing.origin, apiKey: `${KEY}\n` });
    const error = (await client.getAccount().catch((e: unknown) => e)) as Error & { type?: string; detail?: string; title?: string };
    expect(echoing.calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const everything = JSON.stringify({ message: error.message, stack: error.stack, type: error.type, detail: error.detail, title: error.title });
    expect(everything).not.toContain(KEY);
    expect(error.detail).toContain('[redacted]');
    expect(error.type).toContain('[redacted]');
  });
});

describe('input that cannot be sent is refused, naming the field', () => {
  test('a lone surrogate in an id', async () => {
    const client = createClient({ baseUrl: 'https://short.example.com', apiKey: KEY, transport: async () => ({ status: 200, headers: {}, body: {} }) });
    const error = (await client.getLink('12\uD800').catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.field).toBe('id');
    expect(error.message).toMatch(/broken character/);
  });

  test('a lone surrogate in a UTM value names that UTM field', () => {
    expect(() => buildCampaignUrl('https://example.org', { campaign: 'spring\uDC00' })).toThrow(
      expect.objectContaining({ field: 'utm.campaign', message: expect.stringMatching(/broken character/) }),
    );
  });

  test.each([
    ['https://short.example.com/api/v1/links', '/api/v1/links'],
    ['https://short.example.com/api/v1/me/', '/api/v1/me'],
  ])('a base URL with an API path after /api/v1 (%s) is refused instead of becoming …/api/v1/links/api/v1', (baseUrl, path) => {
    expect(() => createClient({ baseUrl, apiKey: KEY })).toThrow(expect.objectContaining({ field: 'baseUrl', message: expect.stringContaining(path) }));
  });
});
