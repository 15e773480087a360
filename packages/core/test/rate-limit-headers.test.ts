/** Every header form the pacer reads, as pure parsing and through the client over nock. */
import nock from 'nock';
import { createClient, parseRateLimitHeaders, parseRetryAfterMs } from '../src/index';
import { API, API_KEY, BASE_URL, fakeClock } from './helpers';
import { ACCOUNT, api, offContract } from './nock-api';

const NOW = Date.parse('2026-03-01T09:30:00.000Z');

describe('parseRateLimitHeaders', () => {
  test('RateLimit-* with Reset as delta seconds', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-limit': '120', 'ratelimit-remaining': '7', 'ratelimit-reset': '42' }, NOW)).toEqual({
      limit: 120,
      remaining: 7,
      resetAtMs: NOW + 42_000,
    });
  });

  test('Reset larger than ten years of seconds is an epoch timestamp (seconds)', () => {
    const epochSeconds = NOW / 1000 + 30;
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(epochSeconds) }, NOW).resetAtMs).toBe(NOW + 30_000);
  });

  test('Reset in epoch milliseconds', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(NOW + 5000) }, NOW).resetAtMs).toBe(NOW + 5000);
  });

  test('a delta just below ten years is still a delta', () => {
    const almostTenYears = 10 * 365 * 24 * 3600 - 1;
    expect(parseRateLimitHeaders({ 'ratelimit-reset': String(almostTenYears) }, NOW).resetAtMs).toBe(NOW + almostTenYears * 1000);
  });

  test('X-RateLimit-* names', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '10' }, NOW)).toEqual({
      limit: 60,
      remaining: 1,
      resetAtMs: NOW + 10_000,
    });
  });

  test('combined RateLimit field, older drafts and draft 8+', () => {
    expect(parseRateLimitHeaders({ ratelimit: 'limit=10, remaining=0, reset=3' }, NOW)).toEqual({ limit: 10, remaining: 0, resetAtMs: NOW + 3000 });
    expect(parseRateLimitHeaders({ ratelimit: '"default";r=4;t=9', 'ratelimit-policy': '"default";q=100;w=60' }, NOW)).toEqual({
      limit: 100,
      remaining: 4,
      resetAtMs: NOW + 9000,
    });
  });

  test('list values take their first number; missing headers give nothing', () => {
    expect(parseRateLimitHeaders({ 'ratelimit-limit': '120, 120;w=60', 'ratelimit-remaining': '"3"' }, NOW)).toEqual({ limit: 120, remaining: 3 });
    expect(parseRateLimitHeaders({}, NOW)).toEqual({});
    expect(parseRateLimitHeaders({ 'ratelimit-remaining': 'soon' }, NOW)).toEqual({});
  });
});

describe('parseRetryAfterMs', () => {
  test('seconds', () => expect(parseRetryAfterMs({ 'retry-after': '12' }, NOW)).toBe(12_000));
  test('fractional seconds', () => expect(parseRetryAfterMs({ 'retry-after': '1.5' }, NOW)).toBe(1500));
  test('HTTP date', () => expect(parseRetryAfterMs({ 'retry-after': new Date(NOW + 20_000).toUTCString() }, NOW)).toBe(20_000));
  test('HTTP date in the past is zero', () => expect(parseRetryAfterMs({ 'retry-after': new Date(NOW - 5000).toUTCString() }, NOW)).toBe(0));
  test('absent or unreadable', () => {
    expect(parseRetryAfterMs({}, NOW)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'later' }, NOW)).toBeUndefined();
  });
});

describe('each form drives the client (nock)', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  function client(clock = fakeClock(NOW)) {
    return { clock, c: createClient({ baseUrl: BASE_URL, apiKey: API_KEY, now: clock.now, sleep: clock.sleep, random: () => 0 }) };
  }

  test.each([
    ['delta seconds', { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5' }, 5000],
    ['epoch seconds', { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(NOW / 1000 + 7) }, 7000],
    ['X-RateLimit', { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '3' }, 3000],
    ['combined field', { RateLimit: 'limit=2, remaining=0, reset=4' }, 4000],
  ])('Remaining 0 with %s: the next call waits for the reset', async (_name, headers, wait) => {
    const { clock, c } = client();
    offContract(nock(API), 'rate-limit header forms of other services').get('/me').reply(200, ACCOUNT, headers);
    api().get('/me').reply(200, ACCOUNT);
    await c.getAccount();
    await c.getAccount();
    expect(clock.sleeps).toEqual([wait]);
  });

  test.each([
    ['seconds', () => '4', 4000],
    ['HTTP date', () => new Date(NOW + 6000).toUTCString(), 6000],
  ])('429 with Retry-After as %s waits that long and retries', async (_name, retryAfter, wait) => {
    const { clock, c } = client();
    offContract(nock(API), 'Retry-After forms of other services (an HTTP date), a bare 429 body')
      .get('/me')
      .reply(429, { title: 'Too many requests', status: 429 }, { 'Retry-After': retryAfter() });
    api().get('/me').reply(200, ACCOUNT);
    await expect(c.getAccount()).resolves.toEqual(ACCOUNT);
    expect(clock.sleeps).toEqual([wait]);
  });

  test('429 without Retry-After waits for the announced reset', async () => {
    const { clock, c } = client();
    offContract(nock(API), 'a 429 without Retry-After: the pacer falls back to RateLimit-Reset')
      .get('/me')
      .reply(429, { title: 'Too many requests', status: 429 }, { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '9' });
    api().get('/me').reply(200, ACCOUNT);
    await c.getAccount();
    expect(clock.sleeps).toEqual([9000]);
  });
});
