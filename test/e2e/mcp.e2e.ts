/**
 * The MCP server as a user gets it: the package built and packed, started with `npx` from the tarball (npm
 * installs its one dependency, the MCP SDK). Two servers of that one install share the sandbox:
 * - loopback (the default), and
 * - `--host 0.0.0.0 --allow-remote --allowed-host NAME`, the README's "n8n in Docker" deployment. No
 *   Docker daemon runs here, so the Docker network is stood in for on loopback: NAME is this machine's
 *   host name where it resolves to loopback (as a Compose service name resolves inside the network), and
 *   n8n calls the server by that name.
 * Against them run the suites nobody here wrote: the official MCP Inspector's CLI (stdio, from the same
 * tarball, and HTTP with the token), `@modelcontextprotocol/conformance` over Streamable HTTP in both modes,
 * and real n8n's standalone "MCP Client" node with a Bearer Auth credential.
 */
import { type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { isLoopbackHost } from '@shortlink/core/host';
import { nodeOutput, type WorkflowJson } from '../../scripts/n8n/instance';
import { node24Env, repoRoot } from '../../scripts/n8n/runtime';
import { connectHttp, spawnServer, stopChild, TEST_TOKEN } from '../../packages/mcp/test/harness';
import { startAuthProxy, type AuthProxy } from './support/auth-proxy';
import { ensureInspector, inspectorCli, runConformance, type Check } from './support/mcp-suites';
import { startOwnN8n, type OwnN8n } from './support/own-n8n';
import { freePort } from './support/ports';

const WORKSPACE = 'shortlink-mcp';

interface Running {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

let sandbox: Sandbox;
let accountId: string;
let apiKey: string;
let folder: string;
let tarball: string;
let loopback: Running | undefined;
let remote: Running | undefined;
/** The name n8n and the suites use for the --allow-remote server (a loopback-resolving host name, else none). */
let remoteName: string | undefined;
let client: Client | undefined;
let own: OwnN8n | undefined;
const proxies: AuthProxy[] = [];

function npm(args: string[], cwd = repoRoot): string {
  return execFileSync('npm', args, { cwd, env: node24Env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
}

/** Build and `npm pack`, as a release does; returns the tarball. */
function packMcp(outDir: string): string {
  npm(['run', 'build', '-w', WORKSPACE]);
  const [packed] = JSON.parse(npm(['pack', '-w', WORKSPACE, '--pack-destination', outDir, '--json'])) as Array<{ filename: string }>;
  return join(outDir, packed!.filename.replace(/^.*\//, ''));
}

function records(result: CallToolResult): Array<Record<string, unknown>> {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return (result.structuredContent as { records: Array<Record<string, unknown>> }).records;
}

/** The environment npx runs the server in: a fresh npm cache (it installs from the tarball, not the workspace). */
function serverEnv(): Record<string, string> {
  return node24Env({
    SHORTLINK_BASE_URL: sandbox.baseUrl,
    SHORTLINK_API_KEY: apiKey,
    SHORTLINK_MCP_TOKEN: TEST_TOKEN,
    npm_config_cache: join(folder, 'npm-cache'),
    INIT_CWD: undefined,
  }) as Record<string, string>;
}

async function npxServer(args: string[]): Promise<Running> {
  return spawnServer('npx', ['--yes', `--package=${tarball}`, WORKSPACE, '--http', ...args], serverEnv());
}

/** This machine's name when it resolves to loopback (the stand-in for a Docker network's service name). */
async function loopbackName(): Promise<string | undefined> {
  const name = hostname();
  try {
    return isLoopbackHost((await lookup(name)).address) ? name : undefined;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: false });
  ({ accountId, apiKey } = sandbox.createAccount({ name: 'MCP e2e', email: 'mcp-e2e@example.org', plan: 'business' }));
  folder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-mcp-'));
  tarball = packMcp(folder);
  remoteName = await loopbackName();
  loopback = await npxServer(['--port', String(await freePort())]);
  remote = await npxServer(['--port', String(await freePort()), '--host', '0.0.0.0', '--allow-remote', '--allowed-host', remoteName ?? 'shortlink-mcp']);
  client = await connectHttp(loopback.url);
}, 300_000);

afterAll(async () => {
  await client?.close();
  for (const proxy of proxies) await proxy.close();
  if (loopback) await stopChild(loopback.child);
  if (remote) await stopChild(remote.child);
  await own?.close();
  await sandbox?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('npx from the packed tarball: tools/list, Find or Create twice, Get, Campaign URL over Streamable HTTP', async () => {
  const { tools } = await client!.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['link_find_or_create', 'link_get', 'campaign_build_url', 'link_get_many', 'campaign_report']));

  const args = { targetUrl: 'https://example.org/e2e-mcp', utmSource: 'agent' };
  const first = records((await client!.callTool({ name: 'link_find_or_create', arguments: args })) as CallToolResult)[0]!;
  const again = records((await client!.callTool({ name: 'link_find_or_create', arguments: args })) as CallToolResult)[0]!;
  expect([first.created, again.created, again.id]).toEqual([true, false, first.id]);
  expect(sandbox.links(accountId)).toHaveLength(1);

  const got = records((await client!.callTool({ name: 'link_get', arguments: { link: first.shortUrl } })) as CallToolResult)[0]!;
  expect(got).toMatchObject({ id: first.id, targetUrl: 'https://example.org/e2e-mcp?utm_source=agent' });

  const campaign = records((await client!.callTool({ name: 'campaign_build_url', arguments: { targetUrl: 'example.org/x', utmMedium: 'email' } })) as CallToolResult)[0]!;
  expect(campaign.url).toBe('https://example.org/x?utm_medium=email');

  expect(loopback!.stderr()).toMatch(/ready on http:\/\/127\.0\.0\.1/);
  expect(loopback!.stderr() + remote!.stderr()).not.toContain(apiKey);
});

it('the official MCP Inspector (CLI): tools/list over stdio from the tarball, and a call over HTTP with the token', async () => {
  const inspector = await ensureInspector();
  const env = ['-e', `SHORTLINK_BASE_URL=${sandbox.baseUrl}`, '-e', `SHORTLINK_API_KEY=${apiKey}`, '-e', `npm_config_cache=${join(folder, 'npm-cache')}`];
  const listed = (await inspectorCli(inspector, [...env, '--method', 'tools/list', '--', 'npx', '--yes', `--package=${tarball}`, WORKSPACE])) as { tools: Array<{ name: string }> };
  expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['link_find_or_create', 'campaign_report', 'account_get']));

  const called = (await inspectorCli(inspector, [loopback!.url, '--transport', 'http', '--header', `Authorization: Bearer ${TEST_TOKEN}`, '--method', 'tools/call', '--tool-name', 'account_get'])) as CallToolResult;
  expect(called.isError).toBeFalsy();
  expect((called.structuredContent as { records: unknown[] }).records).toHaveLength(1);
  await expect(inspectorCli(inspector, [loopback!.url, '--transport', 'http', '--method', 'tools/list'])).rejects.toThrow(/auth_required|401|Unauthorized/);
});

it('5 concurrent Find or Create calls for one URL, over HTTP (5 sessions) and over stdio, leave one link each, all told its id', async () => {
  const stdio = new Client({ name: 'e2e-stdio', version: '1' });
  await stdio.connect(new StdioClientTransport({ command: 'npx', args: ['--yes', `--package=${tarball}`, WORKSPACE], env: serverEnv(), stderr: 'ignore' }));
  const sessions = await Promise.all([1, 2, 3, 4, 5].map(() => connectHttp(loopback!.url)));
  try {
    for (const [transport, callers] of [
      ['http', sessions],
      ['stdio', [stdio]],
    ] as const) {
      const url = `https://example.org/e2e-concurrent-${transport}`;
      const results = await Promise.all([0, 1, 2, 3, 4].map((i) => callers[i % callers.length]!.callTool({ name: 'link_find_or_create', arguments: { targetUrl: url } })));
      const found = results.map((result) => records(result as CallToolResult)[0]!);
      const stored = sandbox.links(accountId).filter((link) => link.targetUrl === url);
      expect({ transport, links: stored.length, ids: [...new Set(found.map((record) => record.id))], created: found.filter((record) => record.created === true).length }).toEqual({
        transport,
        links: 1,
        ids: [stored[0]!.id],
        created: 1,
      });
    }
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
    await stdio.close();
  }
});

it('a call cancelled (notifications/cancelled) during its search, before any POST, makes no link', async () => {
  const big = sandbox.createAccount({ name: 'MCP e2e cancel', email: 'mcp-e2e-cancel@example.org', plan: 'business' });
  sandbox.seedLinks(big.accountId, 3_000);
  // A third server from the same install, for many accounts: the caller's key comes in its own header.
  const perKey = await npxServer(['--port', String(await freePort()), '--per-request-key']);
  const caller = await connectHttp(perKey.url, { 'X-Shortlink-Api-Key': big.apiKey });
  sandbox.setFaults({ latencyMs: 30 });
  try {
    const posts = () => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/links')).length;
    const before = posts();
    const controller = new AbortController();
    const call = caller.callTool({ name: 'link_find_or_create', arguments: { targetUrl: 'https://example.org/e2e-cancelled' } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('stopped by the user'), 300);
    await expect(call).rejects.toThrow();
    const cancelledAt = sandbox.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(posts() - before).toBe(0);
    // Nothing at all after the cancel but what was already on its way.
    expect(sandbox.requests.length - cancelledAt).toBeLessThanOrEqual(1);
    expect(sandbox.links(big.accountId).some((link) => link.targetUrl === 'https://example.org/e2e-cancelled')).toBe(false);
  } finally {
    sandbox.setFaults(undefined);
    await caller.close();
    await stopChild(perKey.child);
  }
});

/**
 * Scenarios that do not apply to this server, and why. A listed scenario "starts to apply" when any of its
 * checks succeeds; then the list is stale and the test fails, as it does when an applicable one fails.
 */
const INAPPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability (its log lines go to stderr)',
  'completion-complete': 'the server declares no completions capability',
  'tools-call-simple-text': 'calls the fixture tool test_simple_text, which only the suite\'s reference server has',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content (no tool here returns audio)',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'needs the logging capability and a fixture tool',
  'tools-call-error': 'calls the fixture tool test_error_handling (tool errors are tested in packages/mcp/test)',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress (progress is tested with Campaign Report in packages/mcp/test)',
  'tools-call-sampling': 'calls the fixture tool test_sampling; the server asks clients for no sampling',
  'tools-call-elicitation': 'calls the fixture tool test_elicitation; the server asks clients for no input',
  'json-schema-2020-12': 'looks for the fixture tool json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'calls a fixture tool; the server asks clients for no input',
  'elicitation-sep1330-enums': 'calls a fixture tool; the server asks clients for no input',
  'server-sse-polling': 'calls the fixture tool test_reconnection; the server keeps no event store, so its streams are not resumable (SEP-1699)',
  'resources-list': 'the server declares no resources capability (files come inside tool results)',
  'resources-read-text': 'no resources capability',
  'resources-read-binary': 'no resources capability',
  'resources-templates-read': 'no resources capability',
  'resources-subscribe': 'no resources capability',
  'resources-unsubscribe': 'no resources capability',
  'prompts-get-simple': 'gets the fixture prompt test_simple_prompt (the server\'s own prompts are tested in packages/mcp/test)',
  'prompts-get-with-args': 'gets the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'gets the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'gets the fixture prompt test_prompt_with_image',
};

function judge(results: Map<string, Check[]>): { applicable: string[]; problems: string[] } {
  const problems: string[] = [];
  const applicable: string[] = [];
  for (const [scenario, checks] of results) {
    const passed = checks.filter((check) => check.status === 'SUCCESS').length;
    const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    if (scenario in INAPPLICABLE) {
      if (passed > 0) problems.push(`${scenario} is listed as inapplicable (${INAPPLICABLE[scenario]}) but ${passed} of its checks passed: it applies now`);
      continue;
    }
    applicable.push(scenario);
    if (passed === 0 || bad.length > 0) problems.push(`${scenario}: ${bad.map((check) => `${check.id} ${check.status} ${check.errorMessage ?? ''}`).join('; ') || 'no check passed'}`);
  }
  for (const scenario of Object.keys(INAPPLICABLE)) if (!results.has(scenario)) problems.push(`${scenario} is listed but the suite no longer has it`);
  return { applicable, problems };
}

describe('@modelcontextprotocol/conformance over Streamable HTTP', () => {
  // The suite connects by URL only, without a token: a loopback proxy adds the Authorization header and
  // changes nothing else (Host and Origin pass as the suite sent them, so the rebinding check is the server's).
  test.each([
    ['loopback', () => loopback!],
    ['--allow-remote on 0.0.0.0', () => remote!],
  ])('every applicable scenario passes (%s), DNS-rebinding protection included', async (mode, server) => {
    const proxy = await startAuthProxy(server().url, { Authorization: `Bearer ${TEST_TOKEN}` });
    proxies.push(proxy);
    const results = await runConformance(proxy.url, join(folder, `conformance-${mode.replace(/\W+/g, '-')}`));
    const { applicable, problems } = judge(results);
    expect(problems).toEqual([]);
    expect(applicable).toEqual(expect.arrayContaining(['server-initialize', 'ping', 'tools-list', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection']));
    const checks = [...results.values()].flat();
    process.stderr.write(
      `conformance (${mode}): ${results.size} scenarios, ${applicable.length} applicable and passed (${checks.filter((check) => check.status === 'SUCCESS').length} checks), ${Object.keys(INAPPLICABLE).length} inapplicable\n`,
    );
  });
});

/** One POST of initialize with exactly these headers (Host as a rebinding browser sends it). */
function status(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: target.port, path: target.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
  });
}

it('the installed servers refuse a missing token, a foreign Host and a foreign or null Origin in both modes', async () => {
  const token = { Authorization: `Bearer ${TEST_TOKEN}` };
  for (const server of [loopback!, remote!]) {
    const port = new URL(server.url).port;
    expect(await status(server.url, { Host: `127.0.0.1:${port}` })).toBe(401);
    expect(await status(server.url, { ...token, Host: `evil.example.com:${port}` })).toBe(403);
    expect(await status(server.url, { ...token, Host: `127.0.0.1:${port}`, Origin: 'https://evil.example.com' })).toBe(403);
    expect(await status(server.url, { ...token, Host: `127.0.0.1:${port}`, Origin: 'null' })).toBe(403);
    expect(await status(server.url, { ...token, Host: `127.0.0.1:${port}` })).toBe(200);
  }
  expect(await status(remote!.url, { ...token, Host: `${remoteName ?? 'shortlink-mcp'}:${new URL(remote!.url).port}` })).toBe(200);
  expect(await status(loopback!.url, { ...token, Host: `${remoteName ?? 'shortlink-mcp'}:${new URL(loopback!.url).port}` })).toBe(remoteName && isLoopbackHost(remoteName) ? 200 : 403);
});

function mcpClientWorkflow(endpointUrl: string): WorkflowJson {
  return {
    id: 'slMcpClient',
    name: 'Short Link through MCP: find or create',
    nodes: [
      { id: '00000000-0000-4000-8000-0000000000d1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      {
        id: '00000000-0000-4000-8000-0000000000d2',
        name: 'MCP Client',
        type: '@n8n/n8n-nodes-langchain.mcpClient',
        typeVersion: 1.1,
        position: [220, 0],
        parameters: {
          serverTransport: 'httpStreamable',
          endpointUrl,
          authentication: 'bearerAuth',
          tool: { __rl: true, mode: 'id', value: 'link_find_or_create' },
          inputMode: 'json',
          jsonInput: JSON.stringify({ targetUrl: 'https://example.org/from-n8n', utmSource: 'n8n' }),
          options: {},
        },
        credentials: { httpBearerAuth: { id: 'mcpToken', name: 'Short Link MCP token' } },
      },
    ],
    connections: { Start: { main: [[{ node: 'MCP Client', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

it("n8n's MCP Client node, as in the README's Docker setup: by the server's name, with the token as Bearer Auth", async () => {
  own = await startOwnN8n('mcp');
  await own.n8n.importCredentialEntries([{ id: 'mcpToken', name: 'Short Link MCP token', type: 'httpBearerAuth', data: { token: TEST_TOKEN } }]);
  const port = new URL(remote!.url).port;
  // The Compose service name stand-in; without one that resolves to loopback, the loopback address.
  const endpoint = `http://${remoteName ?? '127.0.0.1'}:${port}/mcp`;
  await own.n8n.importWorkflows([mcpClientWorkflow(endpoint)], { id: 'unused', name: 'unused' });
  const { run, stdout, stderr } = await own.n8n.execute('slMcpClient');
  const output = nodeOutput(run, 'MCP Client');
  expect({ output: output.length, log: output.length === 1 ? '' : `${stdout}\n${stderr}`.slice(-3000) }).toEqual({ output: 1, log: '' });
  const [record] = (output[0]!.structuredContent as { records: Array<Record<string, unknown>> }).records;
  expect(record).toMatchObject({ created: true, targetUrl: 'https://example.org/from-n8n?utm_source=n8n' });
  expect(sandbox.links(accountId).filter((link) => link.targetUrl === 'https://example.org/from-n8n?utm_source=n8n')).toHaveLength(1);
  process.stderr.write(`n8n MCP Client called ${endpoint} (the --allow-remote server)\n`);

  // Without the token n8n gets nothing: the same workflow with its credential's token changed.
  await own.n8n.importCredentialEntries([{ id: 'mcpToken', name: 'Short Link MCP token', type: 'httpBearerAuth', data: { token: `${TEST_TOKEN}-wrong` } }]);
  const refused = await own.n8n.execute('slMcpClient');
  expect(nodeOutput(refused.run, 'MCP Client')).toHaveLength(0);
  expect(sandbox.links(accountId).filter((link) => link.targetUrl === 'https://example.org/from-n8n?utm_source=n8n')).toHaveLength(1);
});
