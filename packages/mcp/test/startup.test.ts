/**
 * Starting the server: settings from the environment or a config file, the hosts' https rule, the key
 * checked before serving, HTTP only on loopback unless asked, and a web page of another site refused.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { runToExit, serverEnv, type Env } from './harness';
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
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456', utmPresets: ['Newsletter: source=newsletter, medium=email', 'allowed medium: email, qr'] }), { mode: 0o600 });
    expect(loadConfig({}, file).utmPresets).toBe('Newsletter: source=newsletter, medium=email\nallowed medium: email, qr');
    expect(loadConfig({ SHORTLINK_UTM_PRESETS: 'Ads: source=google, medium=cpc' }, file).utmPresets).toBe('Ads: source=google, medium=cpc');
    expect(loadConfig({ SHORTLINK_BASE_URL: 'https://short.example.com', SHORTLINK_API_KEY: 'secret-key-1234' }).utmPresets).toBeUndefined();
  });

  test('a config file gives what the environment does not; the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortlink-mcp-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456' }), { mode: 0o600 });
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

  test('a config file others can read is refused with the command that fixes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortlink-mcp-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://file.example.com', apiKey: 'file-key-123456' }), { mode: 0o600 });
    chmodSync(file, 0o640);
    expect(() => loadConfig({}, file)).toThrow(/can be read by its group \(mode 640\).*chmod 600/);
    chmodSync(file, 0o604);
    expect(() => loadConfig({}, file)).toThrow(/can be read by everyone on this machine/);
    chmodSync(file, 0o400);
    expect(loadConfig({}, file).apiKey).toBe('file-key-123456');
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

  test('HTTP needs a bearer token of 24 characters or more', async () => {
    const { SHORTLINK_MCP_TOKEN: _token, ...noToken } = serverEnv(sandbox.baseUrl, sandbox.apiKey);
    const missing = await runToExit(noToken, ['--http', '--port', '0']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/every caller must send the server.s token: set SHORTLINK_MCP_TOKEN.*after "Bearer "/);
    const short = await runToExit({ ...noToken, SHORTLINK_MCP_TOKEN: 'short' }, ['--http', '--port', '0']);
    expect(short.stderr).toMatch(/has 5 characters; use at least 24/);
  });

  test('--allow-remote on every address needs the names callers use', async () => {
    const { code, stderr } = await runToExit(serverEnv(sandbox.baseUrl, sandbox.apiKey), ['--http', '--port', '0', '--host', '0.0.0.0', '--allow-remote']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/add --allowed-host NAME/);
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
