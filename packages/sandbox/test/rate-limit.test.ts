import { startSandbox, type Sandbox } from '../src/index';
import { api } from './http-helpers';

let clock = Date.parse('2026-03-01T10:00:00.000Z');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, rateLimit: { limit: 3, windowSeconds: 10 } });
});
afterAll(async () => {
  await sandbox.close();
});

const headers = (answer: { headers: Headers }) => ({
  limit: answer.headers.get('RateLimit-Limit'),
  remaining: answer.headers.get('RateLimit-Remaining'),
  reset: answer.headers.get('RateLimit-Reset'),
  retryAfter: answer.headers.get('Retry-After'),
});

test('a fixed window per key: remaining counts down, then 429 with Retry-After until the reset', async () => {
  const key = sandbox.createAccount({ name: 'Window', email: 'window@example.com', plan: 'business' }).apiKey;
  expect(headers(await api(sandbox.baseUrl, key, 'GET', '/me'))).toEqual({ limit: '3', remaining: '2', reset: '10', retryAfter: null });
  clock += 4_000;
  expect(headers(await api(sandbox.baseUrl, key, 'GET', '/me'))).toMatchObject({ remaining: '1', reset: '6' });
  expect(headers(await api(sandbox.baseUrl, key, 'GET', '/me'))).toMatchObject({ remaining: '0', reset: '6' });
  clock += 2_500;
  const limited = await api(sandbox.baseUrl, key, 'GET', '/me');
  expect(limited.status).toBe(429);
  expect(headers(limited)).toEqual({ limit: '3', remaining: '0', reset: '4', retryAfter: '4' });
  expect(limited.json.detail).toContain('retry in 4 seconds');

  clock += 3_500; // exactly at the end of the window
  const fresh = await api(sandbox.baseUrl, key, 'GET', '/me');
  expect(fresh.status).toBe(200);
  expect(headers(fresh)).toMatchObject({ remaining: '2', reset: '10' });
});

test('each key has its own bucket; requests without a known key share the client bucket', async () => {
  const a = sandbox.createAccount({ name: 'A', email: 'a@example.com', plan: 'business' }).apiKey;
  const b = sandbox.createAccount({ name: 'B', email: 'b@example.com', plan: 'enterprise' }).apiKey;
  for (let i = 0; i < 3; i++) expect((await api(sandbox.baseUrl, a, 'GET', '/me')).status).toBe(200);
  expect((await api(sandbox.baseUrl, a, 'GET', '/me')).status).toBe(429);
  expect((await api(sandbox.baseUrl, b, 'GET', '/me')).status).toBe(200);

  clock += 60_000;
  expect((await api(sandbox.baseUrl, undefined, 'GET', '/me')).status).toBe(401);
  expect((await api(sandbox.baseUrl, 'sl_wrong', 'GET', '/me')).status).toBe(401);
  expect((await api(sandbox.baseUrl, undefined, 'GET', '/openapi.json')).status).toBe(200);
  const blocked = await api(sandbox.baseUrl, undefined, 'GET', '/me');
  expect(blocked.status).toBe(429);
  expect(headers(blocked).retryAfter).toBe('10');
  expect((await api(sandbox.baseUrl, a, 'GET', '/me')).status).toBe(200);
});

test('setRateLimit changes the limit and starts every bucket afresh', async () => {
  const key = sandbox.createAccount({ name: 'C', email: 'c@example.com', plan: 'business' }).apiKey;
  for (let i = 0; i < 3; i++) await api(sandbox.baseUrl, key, 'GET', '/me');
  expect((await api(sandbox.baseUrl, key, 'GET', '/me')).status).toBe(429);
  sandbox.setRateLimit({ limit: 120, windowSeconds: 60 });
  expect(headers(await api(sandbox.baseUrl, key, 'GET', '/me'))).toMatchObject({ limit: '120', remaining: '119', reset: '60' });
  expect(() => sandbox.setRateLimit({ limit: 0, windowSeconds: 60 })).toThrow(/limit/);
});

test('the request log records each answer: status, arrival and answer time, 429s included', async () => {
  sandbox.setRateLimit({ limit: 3, windowSeconds: 10 });
  const key = sandbox.createAccount({ name: 'Log', email: 'log@example.com', plan: 'business' }).apiKey;
  const mark = sandbox.requests.length;
  for (let i = 0; i < 4; i++) await api(sandbox.baseUrl, key, 'GET', '/me');
  const logged = sandbox.requests.slice(mark);
  expect(logged.map((request) => request.status)).toEqual([200, 200, 200, 429]);
  for (const request of logged) expect(request).toMatchObject({ method: 'GET', path: '/api/v1/me', receivedAt: clock, answeredAt: clock });
});
