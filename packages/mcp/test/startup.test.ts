/**
 * Starting the server: settings from the environment or a config file, the hosts' https rule, the key
 * checked before serving, HTTP only on loopback unless asked, and a web page of another site refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { connectHttp, runToExit, serverEnv, spawnServer, stopChild, CLI_SOURCE, type Env } from './harness';
import { loadConfig } from '../src/config';

jest.setTimeout(30_000);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const bare: Env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

describe('settings', () => {
  test('a missing key or base URL names the setting to fill', () => {
    expect(() => loadConfig({ SHORTLINK_BASE_URL: 'https://short.example.com' })).toThrow(/Set SHORTLINK_API_KEY .*dashboard, section "API"/);
    expect(() => loadConfig({ SHORTLINK_API_KEY: 'k'.repeat(20) })).toThrow(/Set SHORTLINK_BASE_URL/);
  });

  test('plain http only on loopback, as on the hosts', () => {
    expect(() => loadConfig({ SHORTLINK_BASE_URL: 'http://short.example.com', SHORTLINK_API_KEY: 'secret-key-1234' })).toThrow(/must use https/);
    expect(loadConfig({ SHORTLINK_BASE_URL: 'http://127.0.0.1:4010/api/v1', SHORTLINK_API_KEY: 'secret-key-1234' }).baseUrl).toBe('http://127.0.0.1:4010');
  });

  test('the team\'s UTM presets: lines in the file, or SHORTLINK_UTM_PRESETS (issue 37)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortlink-mcp-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456', utmPresets: ['Newsletter: source=newsletter, medium=email', 'allowed medium: email, qr'] }));
    expect(loadConfig({}, file).utmPresets).toBe('Newsletter: source=newsletter, medium=email\nallowed medium: email, qr');
    expect(loadConfig({ SHORTLINK_UTM_PRESETS: 'Ads: source=google, medium=cpc' }, file).utmPresets).toBe('Ads: source=google, medium=cpc');
    expect(loadConfig({ SHORTLINK_BASE_URL: 'https://short.example.com', SHORTLINK_API_KEY: 'secret-key-1234' }).utmPresets).toBeUndefined();
  });

  test('a config file gives what the environment does not; the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortlink-mcp-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456' }));
    expect(loadConfig({}, file)).toMatchObject({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456' });
    expect(loadConfig({ SHORTLINK_MCP_CONFIG: file, SHORTLINK_BASE_URL: 'https://env.example.com' })).toMatchObject({ baseUrl: 'https://env.example.com', apiKey: 'file-key-123456' });
    writeFileSync(file, '{"apiKey": "file-key-123456",');
    let message = '';
    try {
      loadConfig({}, file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not valid JSON/);
    expect(message).not.toContain('file-key-123456');
  });
});

describe('the bin', () => {
  test('without a key it stops at once, saying which setting is missing', async () => {
    const { code, stderr } = await runToExit({ ...bare, SHORTLINK_BASE_URL: sandbox.baseUrl });
    expect(code).toBe(1);
    expect(stderr).toMatch(/Set SHORTLINK_API_KEY/);
  });

  test('a refused key stops the start with what to do, without the key', async () => {
    const key = 'sk_revoked_0123456789abcdef';
    const { code, stderr } = await runToExit(serverEnv(sandbox.baseUrl, key));
    expect(code).toBe(1);
    expect(stderr).toMatch(/refused the API key.*restart the server with it/);
    expect(stderr).not.toContain(key);
  });

  test('HTTP on another address than loopback needs --allow-remote', async () => {
    const { code, stderr } = await runToExit(serverEnv(sandbox.baseUrl, sandbox.apiKey), ['--http', '--host', '0.0.0.0']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/not a loopback address.*--allow-remote/);
  });

  test('--help lists the settings', async () => {
    const { code, stderr } = await runToExit(bare, ['--help']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/SHORTLINK_BASE_URL[\s\S]*SHORTLINK_API_KEY/);
  });
});

test('the HTTP server refuses pages of other sites (DNS rebinding) and answers only POST /mcp', async () => {
  const { child, url } = await spawnServer(process.execPath, [join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs'), CLI_SOURCE, '--http', '--port', '0'], serverEnv(sandbox.baseUrl, sandbox.apiKey));
  try {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });
    expect((await post({ Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ Origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url.replace('/mcp', '/other'), { method: 'POST' })).status).toBe(404);
    const client = await connectHttp(url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();
  } finally {
    await stopChild(child);
  }
});
