import { FaultInjector } from '../src/faults';
import { startSandbox, type Sandbox } from '../src/index';
import { api } from './http-helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => sandbox.setFaults(undefined));

const targets = () => sandbox.links(sandbox.demoAccountId).map((l) => l.targetUrl);

test('the same randomSeed gives the same faults', () => {
  const roll = () => {
    const injector = new FaultInjector({ errorRate: 0.3, rateLimitStormRate: 0.1, randomSeed: 42 });
    return Array.from({ length: 200 }, () => injector.before().kind);
  };
  const first = roll();
  expect(roll()).toEqual(first);
  expect(first).toContain('none');
  expect(first).toContain('serverError');
  expect(first).toContain('rateLimitStorm');
});

test('errorRate answers a share of requests with 500/502/503, deterministically with a seed', async () => {
  const statuses = async () => {
    sandbox.setFaults({ errorRate: 0.5, randomSeed: 3 });
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) seen.push((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/me')).status);
    return seen;
  };
  const first = await statuses();
  expect(await statuses()).toEqual(first);
  expect(first.filter((s) => s === 200).length).toBeGreaterThan(0);
  expect(first.filter((s) => s >= 500).length).toBeGreaterThan(0);
  expect(first.every((s) => [200, 500, 502, 503].includes(s))).toBe(true);
});

test('resetBeforeRate drops the connection before anything happens', async () => {
  sandbox.setFaults({ resetBeforeRate: 1 });
  await expect(api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://example.org/reset-before' })).rejects.toThrow();
  sandbox.setFaults(undefined);
  expect(targets()).not.toContain('https://example.org/reset-before');
});

test('resetAfterRate processes the request, then drops the connection', async () => {
  sandbox.setFaults({ resetAfterRate: 1 });
  await expect(api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://example.org/reset-after' })).rejects.toThrow();
  sandbox.setFaults(undefined);
  expect(targets()).toContain('https://example.org/reset-after');
});

test('serverErrorAfterRate stores the create, then answers a gateway\'s 502', async () => {
  sandbox.setFaults({ serverErrorAfterRate: 1 });
  const answer = await api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://example.org/502-after' });
  sandbox.setFaults(undefined);
  expect(answer.status).toBe(502);
  expect(targets()).toContain('https://example.org/502-after');
});

test('brokenBodyAfterRate stores the create, then sends its 201 with half of the body', async () => {
  sandbox.setFaults({ brokenBodyAfterRate: 1 });
  const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetUrl: 'https://example.org/cut-after' }),
  });
  const text = await response.text();
  sandbox.setFaults(undefined);
  expect(response.status).toBe(201);
  expect(() => JSON.parse(text)).toThrow();
  expect(targets()).toContain('https://example.org/cut-after');
});

test('afterFaultMethods limits the after-processing faults to the methods named', async () => {
  sandbox.setFaults({ serverErrorAfterRate: 1, afterFaultMethods: ['POST'] });
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/me')).status).toBe(200);
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://example.org/post-only' })).status).toBe(502);
});

test('the Date header comes from the sandbox\'s clock, the one that stamps createdAt', async () => {
  const at = Date.parse('2031-05-06T07:08:09.000Z');
  const clocked = await startSandbox({ now: () => at });
  try {
    const response = await fetch(`${clocked.baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${clocked.apiKey}` } });
    expect(response.headers.get('date')).toBe(new Date(at).toUTCString());
  } finally {
    await clocked.close();
  }
});

test('latencyMs delays but still answers; faults never touch openapi.json or redirects', async () => {
  sandbox.setFaults({ latencyMs: 5 });
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/me')).status).toBe(200);
  sandbox.setFaults({ errorRate: 1, resetBeforeRate: 0 });
  expect((await api(sandbox.baseUrl, undefined, 'GET', '/openapi.json')).status).toBe(200);
  const redirect = await fetch(`${sandbox.baseUrl}/spring-sale`, { redirect: 'manual' });
  expect(redirect.status).toBe(302);
});

test('fault options are checked', () => {
  expect(() => sandbox.setFaults({ errorRate: 2 })).toThrow(/errorRate/);
  expect(() => sandbox.setFaults({ latencyMs: -1 })).toThrow(/latencyMs/);
});
