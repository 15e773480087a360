/** The bench's counters against a real sandbox: what they count is what the figures report. */
import axios from 'axios';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { markRequests, requestsSince } from './sandbox-requests';
import { seedLinks } from './seed-links';
import { countStatuses } from './status-counter';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 3, windowSeconds: 60 } });
});

afterAll(async () => {
  await sandbox.close();
});

it('countStatuses counts every answer from the sandbox, 429s included, and stops when told', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Counter', email: 'counter@bench.example', plan: 'business' });
  const counter = countStatuses(sandbox.baseUrl);
  const get = () => axios.get(`${sandbox.baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` }, validateStatus: () => true });
  for (let i = 0; i < 5; i++) await get();
  counter.stop();
  await get();
  expect(Object.fromEntries(counter.byStatus)).toEqual({ 200: 3, 429: 2 });
  expect(counter.total()).toBe(5);
  expect(counter.count(404)).toBe(0);
});

it('seedLinks creates the links and requestsSince counts what came after a mark, by method and path', async () => {
  const { apiKey } = sandbox.createAccount({ name: 'Seed', email: 'seed@bench.example', plan: 'business' });
  sandbox.setRateLimit({ limit: 1000, windowSeconds: 60 });
  const mark = markRequests(sandbox);
  const ids = await seedLinks({ baseUrl: sandbox.baseUrl, apiKey }, 20, 'seed');
  await fetch(`${sandbox.baseUrl}/api/v1/links?limit=5`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(new Set(ids).size).toBe(20);
  expect(requestsSince(sandbox, mark)).toBe(21);
  expect(requestsSince(sandbox, mark, { method: 'POST', path: '/api/v1/links' })).toBe(20);
  expect(requestsSince(sandbox, mark, { method: 'GET', path: '/api/v1/links' })).toBe(1);
});

it('seedLinks stops at the first answer that is not 201, naming it', async () => {
  sandbox.setRateLimit({ limit: 2, windowSeconds: 60 });
  const { apiKey } = sandbox.createAccount({ name: 'Limited', email: 'limited@bench.example', plan: 'business' });
  await expect(seedLinks({ baseUrl: sandbox.baseUrl, apiKey }, 5, 'limited')).rejects.toThrow(/answered 429/);
});
