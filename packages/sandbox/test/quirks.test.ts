/** The create path's knobs: list order and lag, the two clocks, no Date header, scripted create faults, a second caller. */
import { startSandbox, type Sandbox } from '../src/index';
import { api } from './http-helpers';

let sandbox: Sandbox;
let clock = Date.parse('2026-05-04T10:00:00.000Z');
beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setFaults(undefined);
  sandbox.setQuirks(undefined);
});

const create = (targetUrl: string) => api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl });
const list = async (limit = 100, cursor?: string) => {
  const query = cursor === undefined ? `?limit=${limit}` : `?limit=${limit}&cursor=${encodeURIComponent(cursor)}`;
  return (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links${query}`)).json as { data: Array<{ id: string; createdAt: string }>; nextCursor: string | null };
};

test('oldest first: the whole list in creation order, page by page', async () => {
  sandbox.seedLinks(sandbox.demoAccountId, 7, { spacingMs: 0, label: 'order' });
  const newestFirst: string[] = [];
  for (let cursor: string | undefined, page; (page = await list(3, cursor)); cursor = page.nextCursor) {
    newestFirst.push(...page.data.map((l) => l.id));
    if (!page.nextCursor) break;
  }
  sandbox.setQuirks({ listOrder: 'oldest first' });
  const oldestFirst: string[] = [];
  for (let cursor: string | undefined, page; (page = await list(3, cursor)); cursor = page.nextCursor) {
    oldestFirst.push(...page.data.map((l) => l.id));
    if (!page.nextCursor) break;
  }
  expect(newestFirst.length).toBeGreaterThan(3);
  expect(oldestFirst).toEqual([...newestFirst].reverse());
});

test('list lag: a new link shows only after the lag', async () => {
  sandbox.setQuirks({ listLagMs: 1_500 });
  const made = await create('https://example.com/lag');
  expect((await list()).data.map((l) => l.id)).not.toContain(made.json.id);
  clock += 1_500;
  expect((await list()).data.map((l) => l.id)).toContain(made.json.id);
});

test('clocks: Date and createdAt each off by their own offset; no Date header', async () => {
  sandbox.setQuirks({ dateOffsetMs: -3_600_000, createdAtOffsetMs: 120_000 });
  const made = await create('https://example.com/clocks');
  expect(Date.parse(made.headers.get('date')!)).toBe(Math.floor((clock - 3_600_000) / 1000) * 1000);
  expect(Date.parse(made.json.createdAt)).toBe(clock + 120_000);
  sandbox.setQuirks({ sendDate: false });
  expect((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/me')).headers.get('date')).toBeNull();
});

test('scripted create faults: before the write nothing is stored, after it the link is', async () => {
  const count = () => sandbox.links(sandbox.demoAccountId).length;
  sandbox.setFaults({ createFaults: ['resetBefore', 'serverErrorBefore', 'reset', 'serverError', 'gatewayTimeout', 'brokenBody', 'timeout'], hangMs: 200 });
  const before = count();
  await expect(create('https://example.com/f1')).rejects.toThrow();
  expect((await create('https://example.com/f2')).status).toBe(503);
  expect(count()).toBe(before);
  await expect(create('https://example.com/f3')).rejects.toThrow();
  expect((await create('https://example.com/f4')).status).toBe(502);
  expect((await create('https://example.com/f5')).status).toBe(504);
  const cut = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetUrl: 'https://example.com/f6' }),
  });
  expect(cut.status).toBe(201);
  await expect(cut.json()).rejects.toThrow();
  const started = Date.now();
  await expect(create('https://example.com/f7')).rejects.toThrow();
  expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  expect(count()).toBe(before + 5);
  // The script is used up: the next create is answered normally.
  expect((await create('https://example.com/f8')).status).toBe(201);
});

test('a second caller creates the same link after a lost answer, at its moment on the sandbox clock', async () => {
  sandbox.setQuirks({ secondCaller: { delayMs: 500 } });
  sandbox.setFaults({ createFaults: ['serverError'] });
  expect((await create('https://example.com/twice')).status).toBe(502);
  await list();
  expect(sandbox.secondCallerLinks.filter((l) => l.targetUrl === 'https://example.com/twice')).toHaveLength(0);
  clock += 500;
  await list();
  const second = sandbox.secondCallerLinks.filter((l) => l.targetUrl === 'https://example.com/twice');
  expect(second).toHaveLength(1);
  expect(sandbox.links(sandbox.demoAccountId).filter((l) => l.targetUrl === 'https://example.com/twice')).toHaveLength(2);
});
