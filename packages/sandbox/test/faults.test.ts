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
