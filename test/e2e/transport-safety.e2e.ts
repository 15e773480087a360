/**
 * Safe transports where users run them: the packed n8n package inside a real n8n (its own request helper,
 * its credential dialog, its Stop button) and the built Zapier zip through its own handler. A loopback
 * server redirects to a second loopback origin that records whatever reaches it; sandboxes lose the answer
 * of creates after storing them; a sandbox with a tiny rate limit keeps a bulk run waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type FaultOptions, type Sandbox } from '@shortlink/sandbox';
import { N8nInstance, nodeItems, type WorkflowJson } from '../../scripts/n8n/instance';
import { ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { startRecordingServer, startRedirectingServer, startServer, type TestServer } from '../support/hostile-servers';
import { buildZapierZip } from './support/artifacts';
import { freePort, waitFor } from './support/ports';
import { shortenRowsWorkflow } from './support/workflows';
import { ZapierHandler } from './support/zapier-handler';

const KEY = 'sk_live_E2E_TRANSPORT_SAFETY_KEY_01';
const OWNER = { email: 'owner@example.com', password: 'E2e-owner-1', firstName: 'E2e', lastName: 'Owner' };
const TRIGGER = "When clicking 'Execute workflow'";

let n8n: N8nInstance;
let userFolder: string;
let other: TestServer;
let redirecting: TestServer;
let lostAnswers: Sandbox;
let slow: Sandbox;
let cookie: string;
const zapier = new ZapierHandler();

/** Manual trigger → `count` items → Short Link Create with `{{ $json.url }}`: a sheet of campaign URLs. */
function bulkCreate(id: string, count: number, prefix: string): WorkflowJson {
  return shortenRowsWorkflow({
    id,
    name: `Transport safety ${id}`,
    trigger: { name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
    rows: `Array.from({ length: ${count} }, (_, i) => ({ url: '${prefix}' + i }))`,
  });
}

async function withCredential(id: string, baseUrl: string, apiKey: string, workflow: WorkflowJson): Promise<void> {
  const credential = { id, name: `Short Link ${id}` };
  await n8n.importCredential({ ...credential, apiKey, baseUrl });
  await n8n.importWorkflows([workflow], credential);
}

/** An address of this machine that is not loopback, if it has one (plain http there must be refused). */
function nonLoopbackAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return undefined;
}

const LOST_ANSWER: FaultOptions = { serverErrorAfterRate: 0.4, resetAfterRate: 0.2, brokenBodyAfterRate: 0.2, afterFaultMethods: ['POST'], randomSeed: 5 };

beforeAll(async () => {
  const runtime = await ensureN8nRuntime();
  other = await startRecordingServer('127.0.0.2');
  redirecting = await startRedirectingServer(other.origin, 307);
  lostAnswers = await startSandbox({ faults: LOST_ANSWER });
  slow = await startSandbox({ rateLimit: { limit: 5, windowSeconds: 15 } });
  userFolder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-safety-'));
  n8n = new N8nInstance({ runtime, userFolder, port: await freePort(), brokerPort: await freePort() });
  const tarball = process.env.SHORTLINK_E2E_TARBALL;
  if (!tarball) throw new Error('SHORTLINK_E2E_TARBALL is not set: run through `npm run test:e2e` (its global setup packs the package).');
  await n8n.installCommunityPackage(tarball);
  await withCredential('slRedirect', redirecting.origin, KEY, bulkCreate('slWfRedirect', 2, 'https://example.org/redirect/'));
  await withCredential('slLost', lostAnswers.baseUrl, lostAnswers.apiKey, bulkCreate('slWfLost', 40, 'https://example.org/lost/'));
  await withCredential('slSlow', slow.baseUrl, slow.apiKey, bulkCreate('slWfStop', 30, 'https://example.org/stop/'));
  await zapier.start(buildZapierZip());
}, 600_000);

afterAll(async () => {
  await zapier.stop();
  await n8n?.stop();
  await Promise.all([other?.close(), redirecting?.close(), lostAnswers?.close(), slow?.close()]);
  if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

describe('real n8n, `n8n execute`', () => {
  it('a 307 to another origin: the execution fails naming the Location; the other origin never sees the key or a body', async () => {
    const result = await n8n.execute('slWfRedirect');
    expect(result.code).toBe(1);
    // A run of two rows reads the plan's quota first (GET /me): that is the request the redirect answers.
    expect(result.stdout + result.stderr).toContain(`redirected to ${other.origin}/api/v1/me`);
    // n8n's own helper saw the 307 and did not follow it; nothing was created anywhere.
    const methods = redirecting.calls.map((call) => call.method);
    expect(methods).toContain('GET');
    expect(methods).not.toContain('POST');
    expect(other.calls).toEqual([]);
  });

  it('creates whose answers are lost after they were stored: every row one link, none reported failed', async () => {
    const result = await n8n.execute('slWfLost');
    expect({ code: result.code, output: result.code === 0 ? '' : (result.stdout + result.stderr).slice(-3000) }).toEqual({ code: 0, output: '' });
    const items = nodeItems(result.run, 'Shorten');
    expect(items).toHaveLength(40);
    // A failed row would carry its explanation in the json (the node sets no .error beside it).
    expect(items.filter((item) => item.error || 'error' in item.json)).toEqual([]);
    const links = lostAnswers.links(lostAnswers.demoAccountId).filter((link) => link.targetUrl.startsWith('https://example.org/lost/'));
    expect(links).toHaveLength(40);
    expect(new Set(links.map((link) => link.targetUrl)).size).toBe(40);
    expect(items.map((item) => item.json.id).sort()).toEqual(links.map((link) => link.id).sort());
    // The faults bit: more creates were answered badly than not at all.
    expect(lostAnswers.requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(5);
  });

});

describe('real n8n, the editor (n8n start)', () => {
  beforeAll(async () => {
    await n8n.start();
    await n8n.setupOwner(OWNER);
    cookie = await n8n.login(OWNER.email, OWNER.password);
  }, 180_000);

  it('the credential dialog\'s test applies the nodes\' Base URL rules and follows no redirect', async () => {
    const ip = nonLoopbackAddress();
    const plainHttpHost = ip ? await startServer((_request, response) => response.end('{}'), ip) : undefined;
    try {
      // Against the lost-answers sandbox: the slow one's five requests a minute belong to the Stop test.
      const good = await n8n.testCredential(cookie, 'slSlow', { apiKey: lostAnswers.apiKey, baseUrl: lostAnswers.baseUrl });
      expect(good).toEqual({ status: 'OK', message: 'Connection successful' });

      const wrongKey = await n8n.testCredential(cookie, 'slSlow', { apiKey: 'wrong-key-000', baseUrl: lostAnswers.baseUrl });
      expect(wrongKey.status).toBe('Error');
      expect(wrongKey.message).toMatch(/The API key is invalid or revoked\./);

      const redirected = await n8n.testCredential(cookie, 'slSlow', { apiKey: KEY, baseUrl: redirecting.origin });
      expect(redirected.status).toBe('Error');
      expect(redirected.message).toContain(`redirected to ${other.origin}/api/v1/me`);

      for (const baseUrl of ['http://short.example.com', 'https://user:secret@short.example.com', ...(plainHttpHost ? [plainHttpHost.origin] : [])]) {
        const refused = await n8n.testCredential(cookie, 'slSlow', { apiKey: KEY, baseUrl });
        expect(refused.status).toBe('Error');
        expect(refused.message).toMatch(/https|user name or password/);
      }
      expect(other.calls).toEqual([]);
      expect(plainHttpHost?.calls ?? []).toEqual([]);
    } finally {
      await plainHttpHost?.close();
    }
  });

  it('the Stop button ends a bulk run that waits for the rate limit within 10 s, and no request follows', async () => {
    const executionId = await n8n.startInEditor(cookie, 'slWfStop', TRIGGER);
    // The first five creates spend the window; the run then waits up to 15 s for the next one.
    expect(await waitFor(() => slow.requests.filter((request) => request.method === 'POST').length >= 5, 60_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stoppedAt = Date.now();
    await n8n.stopExecution(cookie, executionId);
    const status = await n8n.waitForExecution(cookie, executionId, 30_000);
    const seconds = (Date.now() - stoppedAt) / 1000;
    console.log(`Stop: the execution ended as "${status}" ${seconds.toFixed(1)} s after the Stop button`);
    expect(status).not.toBe('success');
    expect(seconds).toBeLessThan(10);
    // n8n marks an execution stopped at once; that the node really stopped shows after the window opens
    // again: a node still waiting would send its next create then.
    const posts = slow.requests.filter((request) => request.method === 'POST').length;
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    expect(slow.requests.filter((request) => request.method === 'POST').length).toBe(posts);
    expect(slow.links(slow.demoAccountId).filter((link) => link.targetUrl.includes('/stop/')).length).toBeLessThan(30);
  });
});

describe('the Zapier zip\'s handler', () => {
  it('a redirect to another origin fails naming it; the other origin never sees the key or the body', async () => {
    const before = other.calls.length;
    const auth = { apiKey: KEY, baseUrl: redirecting.origin };
    const create = await zapier.call('creates.create_link.operation.perform', { authData: auth, inputData: { targetUrl: 'https://example.org/z' } });
    expect(create.ok).toBe(false);
    expect(create.error!.message).toContain(`redirected to ${other.origin}/api/v1/links`);
    const test = await zapier.call('authentication.test', { authData: auth, inputData: {} });
    expect(test.ok).toBe(false);
    expect(other.calls.slice(before)).toEqual([]);
  });

  it('creates whose answers are lost after they were stored: each one link, answered as created', async () => {
    const auth = { apiKey: lostAnswers.apiKey, baseUrl: lostAnswers.baseUrl };
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const answer = await zapier.call('creates.create_link.operation.perform', { authData: auth, inputData: { targetUrl: `https://example.org/zap-lost/${i}` } });
      expect(answer.error?.message).toBeUndefined();
      ids.push(String((answer.result!.results as { id: string }).id));
    }
    const links = lostAnswers.links(lostAnswers.demoAccountId).filter((link) => link.targetUrl.startsWith('https://example.org/zap-lost/'));
    expect(links.map((link) => link.id).sort()).toEqual([...ids].sort());
  });

  it('never prints the key', () => {
    expect(zapier.printed.join('\n')).not.toContain(KEY);
    expect(zapier.printed.join('\n')).not.toContain(lostAnswers.apiKey);
  });
});
