import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../src/index';
import { api } from './http-helpers';

describe('isolation between accounts', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  test("an account neither sees nor changes another account's links and domains", async () => {
    const other = sandbox.createAccount({ name: 'Other', email: 'other@example.com', plan: 'business' });
    sandbox.addDomain(other.accountId, 'links.other.example');
    const mine = (await api(sandbox.baseUrl, other.apiKey, 'POST', '/links', { targetUrl: 'https://other.example/', domain: 'links.other.example' })).json;

    const list = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/links?limit=100')).json;
    expect(list.data.map((l: { id: string }) => l.id)).not.toContain(mine.id);
    expect((await api(sandbox.baseUrl, sandbox.apiKey, 'GET', `/links/${'9'.repeat(300)}`)).status).toBe(404);
    for (const [method, path, body] of [
      ['GET', `/links/${mine.id}`],
      ['PATCH', `/links/${mine.id}`, { title: 'taken over' }],
      ['DELETE', `/links/${mine.id}`],
      ['GET', `/links/${mine.id}/stats`],
    ] as const) {
      expect((await api(sandbox.baseUrl, sandbox.apiKey, method, path, body)).status).toBe(404);
    }
    const domains = (await api(sandbox.baseUrl, sandbox.apiKey, 'GET', '/domains')).json;
    expect(domains.data.map((d: { hostname: string }) => d.hostname)).not.toContain('links.other.example');
    const foreign = await api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://x.example/', domain: 'links.other.example' });
    expect(foreign.status).toBe(403);

    expect(sandbox.links(other.accountId)).toEqual([{ ...mine, blocked: false, hasPassword: false, expiresAt: null }]);
    const me = (await api(sandbox.baseUrl, other.apiKey, 'GET', '/me')).json;
    expect(me).toMatchObject({ id: other.accountId, name: 'Other', usage: { links: 1, clicks: 0 } });
  });

  test('the default domain is shared: a slug taken by another account is a conflict', async () => {
    const other = sandbox.createAccount({ name: 'Slugs', email: 'slugs@example.com', plan: 'enterprise' });
    expect((await api(sandbox.baseUrl, other.apiKey, 'POST', '/links', { targetUrl: 'https://a.example/', slug: 'shared-slug' })).status).toBe(201);
    expect((await api(sandbox.baseUrl, sandbox.apiKey, 'POST', '/links', { targetUrl: 'https://b.example/', slug: 'shared-slug' })).status).toBe(409);
  });

  test('free and pro plans have no API access', async () => {
    for (const plan of ['free', 'pro'] as const) {
      const { apiKey } = sandbox.createAccount({ name: plan, email: `${plan}@example.com`, plan });
      const answer = await api(sandbox.baseUrl, apiKey, 'GET', '/me');
      expect(answer.status).toBe(403);
      expect(answer.json.detail).toContain(`this account is on the ${plan} plan`);
    }
  });
});

describe('persistence and hashed keys', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
  });
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  test('a restart from the data file keeps accounts, links, clicks and keys; the file holds only key hashes', async () => {
    const dataFile = join(directory, 'state.json');
    const first = await startSandbox({ dataFile });
    const customer = first.createAccount({ name: 'Kept', email: 'kept@example.com', plan: 'business' });
    const created = (await api(first.baseUrl, customer.apiKey, 'POST', '/links', { targetUrl: 'https://kept.example/', slug: 'kept', password: 'hunter22' })).json;
    await fetch(`${first.baseUrl}/kept?password=hunter22`, { redirect: 'manual' });
    const before = first.links(customer.accountId);
    await first.close();

    const stored = readFileSync(dataFile, 'utf8');
    for (const secret of [customer.apiKey, first.apiKey, 'hunter22']) expect(stored).not.toContain(secret);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(stored).toContain(sha(customer.apiKey));
    expect(stored).toContain(sha(first.apiKey));

    const second = await startSandbox({ dataFile });
    try {
      expect(second.demoAccountId).toBe(first.demoAccountId);
      expect(second.apiKey).not.toBe(first.apiKey); // a fresh demo key: the old one was never stored
      expect((await api(second.baseUrl, second.apiKey, 'GET', '/me')).status).toBe(200);
      expect((await api(second.baseUrl, first.apiKey, 'GET', '/me')).status).toBe(200);
      const again = await api(second.baseUrl, customer.apiKey, 'GET', `/links/${created.id}`);
      expect(again.status).toBe(200);
      expect(again.json.shortUrl).toBe(`${second.baseUrl}/kept`);
      expect(again.json).toMatchObject({ clicks: 1, hasPassword: true });
      expect(second.links(customer.accountId).map((l) => l.id)).toEqual(before.map((l) => l.id));
      // New ids continue after the old ones.
      const next = (await api(second.baseUrl, customer.apiKey, 'POST', '/links', { targetUrl: 'https://next.example/' })).json;
      expect(BigInt(next.id)).toBeGreaterThan(BigInt(created.id));
    } finally {
      await second.close();
    }
    const third = await startSandbox({ dataFile, demoApiKey: 'fixed-demo-key-123' });
    try {
      expect(third.apiKey).toBe('fixed-demo-key-123');
      expect((await api(third.baseUrl, 'fixed-demo-key-123', 'GET', '/links/' + created.id)).status).toBe(404);
      expect(third.links(customer.accountId)).toHaveLength(2);
      expect(readFileSync(dataFile, 'utf8')).not.toContain('fixed-demo-key-123');
    } finally {
      await third.close();
    }
  });

  test('keys never appear in answers, and seed: false starts empty', async () => {
    const sandbox = await startSandbox({ seed: false });
    try {
      expect(sandbox.apiKey).toBe('');
      expect(sandbox.demoAccountId).toBe('');
      const { apiKey } = sandbox.createAccount({ name: 'Quiet', email: 'quiet@example.com', plan: 'business' });
      expect(apiKey).toMatch(/^sl_[A-Za-z0-9]{40}$/);
      const answers = [
        await api(sandbox.baseUrl, apiKey, 'GET', '/me'),
        await api(sandbox.baseUrl, apiKey, 'GET', '/links'),
        await api(sandbox.baseUrl, apiKey, 'POST', '/links', {}),
        await api(sandbox.baseUrl, `${apiKey}x`, 'GET', '/me'),
      ];
      expect(answers[1].json).toEqual({ data: [], nextCursor: null });
      for (const answer of answers) expect(answer.text).not.toContain(apiKey);
    } finally {
      await sandbox.close();
    }
  });
});
