/**
 * Who may call the HTTP server, in each mode it runs in (loopback; --allow-remote on every address with the
 * names callers use; --per-request-key for many accounts): a request without the token, with a wrong one,
 * with a foreign Host, or with a foreign or `null` Origin is refused in every mode, before it reaches the
 * protocol; the allowed ones get through. Raw HTTP requests, so that Host can be set as a rebinding page's is.
 */
import { request as httpRequest } from 'node:http';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { CLI_SOURCE, connectHttp, recordsOf, serverEnv, spawnServer, stopChild, TEST_TOKEN, type Env } from './harness';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

jest.setTimeout(60_000);

const TSX = join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');

let sandbox: Sandbox;
let keyA: string;
let keyB: string;
let accountA: string;
let accountB: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  ({ apiKey: keyA, accountId: accountA } = sandbox.createAccount({ name: 'A', email: 'a-access@example.org', plan: 'business' }));
  ({ apiKey: keyB, accountId: accountB } = sandbox.createAccount({ name: 'B', email: 'b-access@example.org', plan: 'business' }));
});
afterAll(async () => {
  await sandbox?.close();
});

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One POST of initialize with exactly these headers (Host included, as a browser after DNS rebinding sends it). */
function post(url: string, headers: Record<string, string>): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(INIT);
  });
}

interface Mode {
  name: string;
  args: string[];
  env: (base: Env) => Env;
  /** Headers every accepted request of this mode carries beside the token. */
  extra: Record<string, string>;
  /** Host names accepted beside loopback ones. */
  names: string[];
}

const MODES: Mode[] = [
  { name: 'loopback (default)', args: [], env: (base) => base, extra: {}, names: [] },
  { name: '--allow-remote on every address', args: ['--host', '0.0.0.0', '--allow-remote', '--allowed-host', 'shortlink-mcp'], env: (base) => base, extra: {}, names: ['shortlink-mcp'] },
  {
    name: '--per-request-key without a key of its own',
    args: ['--per-request-key'],
    env: ({ SHORTLINK_API_KEY: _key, ...base }) => base,
    extra: { 'X-Shortlink-Api-Key': '' },
    names: [],
  },
];

describe.each(MODES)('$name', (mode) => {
  let child: ChildProcess;
  let url: string;
  let port: string;
  let ok: Record<string, string>;

  beforeAll(async () => {
    ({ child, url } = await spawnServer(process.execPath, [TSX, CLI_SOURCE, '--http', '--port', '0', ...mode.args], mode.env(serverEnv(sandbox.baseUrl, keyA))));
    port = new URL(url).port;
    ok = { Authorization: `Bearer ${TEST_TOKEN}`, ...(mode.extra['X-Shortlink-Api-Key'] !== undefined ? { 'X-Shortlink-Api-Key': keyA } : {}) };
  });
  afterAll(async () => {
    if (child) await stopChild(child);
  });

  test('a request with the token and a loopback Host gets in', async () => {
    const answer = await post(url, { ...ok, Host: `127.0.0.1:${port}` });
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeDefined();
    expect((await post(url, { ...ok, Host: `localhost:${port}`, Origin: 'http://localhost:5173' })).status).toBe(200);
  });

  test('without the token, or with a wrong one, it is refused (401)', async () => {
    const { Authorization: _token, ...noToken } = ok;
    const missing = await post(url, { ...noToken, Host: `127.0.0.1:${port}` });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(missing.body).error.message).toMatch(/Authorization: Bearer <token>/);
    expect((await post(url, { ...noToken, Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TEST_TOKEN}x` })).status).toBe(401);
    expect((await post(url, { ...noToken, Host: `127.0.0.1:${port}`, Authorization: `Basic ${TEST_TOKEN}` })).status).toBe(401);
  });

  test('a foreign Host is refused (403), even with the token: DNS rebinding gets nothing', async () => {
    for (const host of ['evil.example.com', `evil.example.com:${port}`, 'shortlink-mcp.evil.example.com', '127.0.0.1.nip.io']) {
      expect({ host, status: (await post(url, { ...ok, Host: host })).status }).toEqual({ host, status: 403 });
    }
  });

  test('a foreign or null Origin is refused (403)', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.nip.io', 'file://']) {
      expect({ origin, status: (await post(url, { ...ok, Host: `127.0.0.1:${port}`, Origin: origin })).status }).toEqual({ origin, status: 403 });
    }
  });

  test('the names given with --allowed-host get in; nothing else is widened', async () => {
    for (const name of mode.names) expect((await post(url, { ...ok, Host: `${name}:${port}` })).status).toBe(200);
    if (mode.names.length === 0) expect((await post(url, { ...ok, Host: `shortlink-mcp:${port}` })).status).toBe(403);
  });

  test('the SDK client with the token lists the tools', async () => {
    const client = await connectHttp(url, ok);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();
  });
});

describe('the per-request key', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const { SHORTLINK_API_KEY: _key, ...env } = serverEnv(sandbox.baseUrl, keyA);
    ({ child, url } = await spawnServer(process.execPath, [TSX, CLI_SOURCE, '--http', '--port', '0', '--per-request-key'], env));
  });
  afterAll(async () => {
    if (child) await stopChild(child);
  });

  test('each request acts on the account of its key; without a key it is refused', async () => {
    const a = await connectHttp(url, { 'X-Shortlink-Api-Key': keyA });
    const b = await connectHttp(url, { 'X-Shortlink-Api-Key': keyB });
    const made = recordsOf((await a.callTool({ name: 'link_create', arguments: { targetUrl: 'https://example.org/per-key-a' } })) as CallToolResult);
    expect(sandbox.links(accountA).some((link) => link.id === made[0]!.id)).toBe(true);
    recordsOf((await b.callTool({ name: 'link_create', arguments: { targetUrl: 'https://example.org/per-key-b' } })) as CallToolResult);
    expect(sandbox.links(accountB).map((link) => link.targetUrl)).toContain('https://example.org/per-key-b');
    expect(sandbox.links(accountA).map((link) => link.targetUrl)).not.toContain('https://example.org/per-key-b');
    await a.close();
    await b.close();
    expect((await post(url, { Authorization: `Bearer ${TEST_TOKEN}`, Host: '127.0.0.1' })).status).toBe(401);
  });

  test("a session answers only the key that opened it (another key's request is told the session is unknown)", async () => {
    const opened = await post(url, { Authorization: `Bearer ${TEST_TOKEN}`, Host: '127.0.0.1', 'X-Shortlink-Api-Key': keyA });
    const session = String(opened.headers['mcp-session-id']);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const target = new URL(url);
    const asKey = (key: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${TEST_TOKEN}`, 'X-Shortlink-Api-Key': key, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(list);
      });
    expect(await asKey(keyB)).toBe(404);
    expect(await asKey(keyA)).toBe(200);
  });

  test('a server with its own key refuses a per-request key instead of ignoring it', async () => {
    const own = await spawnServer(process.execPath, [TSX, CLI_SOURCE, '--http', '--port', '0'], serverEnv(sandbox.baseUrl, keyA));
    try {
      const answer = await post(own.url, { Authorization: `Bearer ${TEST_TOKEN}`, Host: '127.0.0.1', 'X-Shortlink-Api-Key': keyB });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.message).toMatch(/--per-request-key/);
      expect(own.stderr()).not.toContain(keyA);
    } finally {
      await stopChild(own.child);
    }
  });
});
