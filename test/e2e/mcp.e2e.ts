/**
 * The MCP server as a user gets it: the package built and packed, started with `npx` from the tarball
 * (npm installs its one dependency, the MCP SDK), Streamable HTTP on loopback, the SDK's client calling three
 * tools against the sandbox. Then one call from real n8n: its standalone "MCP Client" node
 * (@n8n/n8n-nodes-langchain.mcpClient, no language model needed) runs Find or Create through the server.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { nodeOutput, type WorkflowJson } from '../../scripts/n8n/instance';
import { node24Env, repoRoot } from '../../scripts/n8n/runtime';
import { connectHttp, spawnServer, stopChild } from '../../packages/mcp/test/harness';
import { startOwnN8n, type OwnN8n } from './support/own-n8n';
import { freePort } from './support/ports';

const WORKSPACE = 'shortlink-mcp';

let sandbox: Sandbox;
let accountId: string;
let apiKey: string;
let folder: string;
let server: { child: ChildProcess; url: string; stderr: () => string } | undefined;
let client: Client | undefined;
let own: OwnN8n | undefined;

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

beforeAll(async () => {
  sandbox = await startSandbox({ seed: false });
  ({ accountId, apiKey } = sandbox.createAccount({ name: 'MCP e2e', email: 'mcp-e2e@example.org', plan: 'business' }));
  folder = mkdtempSync(join(tmpdir(), 'shortlink-e2e-mcp-'));
  const tarball = packMcp(folder);
  const port = await freePort();
  // A folder of its own and a fresh npm cache: npx installs from the tarball, not from the workspace.
  server = await spawnServer(
    'npx',
    ['--yes', `--package=${tarball}`, WORKSPACE, '--http', '--port', String(port)],
    node24Env({ SHORTLINK_BASE_URL: sandbox.baseUrl, SHORTLINK_API_KEY: apiKey, npm_config_cache: join(folder, 'npm-cache'), INIT_CWD: undefined }) as Record<string, string>,
  );
  client = await connectHttp(server.url);
}, 300_000);

afterAll(async () => {
  await client?.close();
  if (server) await stopChild(server.child);
  await own?.close();
  await sandbox?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('npx from the packed tarball: Find or Create twice, Get, Campaign URL over Streamable HTTP', async () => {
  const { tools } = await client!.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['link_find_or_create', 'link_get', 'campaign_build_url', 'link_get_many']));

  const args = { targetUrl: 'https://example.org/e2e-mcp', utmSource: 'agent' };
  const first = records((await client!.callTool({ name: 'link_find_or_create', arguments: args })) as CallToolResult)[0]!;
  const again = records((await client!.callTool({ name: 'link_find_or_create', arguments: args })) as CallToolResult)[0]!;
  expect([first.created, again.created, again.id]).toEqual([true, false, first.id]);
  expect(sandbox.links(accountId)).toHaveLength(1);

  const got = records((await client!.callTool({ name: 'link_get', arguments: { link: first.shortUrl } })) as CallToolResult)[0]!;
  expect(got).toMatchObject({ id: first.id, targetUrl: 'https://example.org/e2e-mcp?utm_source=agent' });

  const campaign = records((await client!.callTool({ name: 'campaign_build_url', arguments: { targetUrl: 'example.org/x', utmMedium: 'email' } })) as CallToolResult)[0]!;
  expect(campaign.url).toBe('https://example.org/x?utm_medium=email');

  expect(server!.stderr()).toMatch(/ready on http:\/\/127\.0\.0\.1/);
  expect(server!.stderr()).not.toContain(apiKey);
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
          authentication: 'none',
          tool: { __rl: true, mode: 'id', value: 'link_find_or_create' },
          inputMode: 'json',
          jsonInput: JSON.stringify({ targetUrl: 'https://example.org/from-n8n', utmSource: 'n8n' }),
          options: {},
        },
      },
    ],
    connections: { Start: { main: [[{ node: 'MCP Client', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

it("one call from real n8n: the standalone MCP Client node runs Find or Create through the server", async () => {
  own = await startOwnN8n('mcp');
  await own.n8n.importWorkflows([mcpClientWorkflow(server!.url)], { id: 'unused', name: 'unused' });
  const { run, stdout, stderr } = await own.n8n.execute('slMcpClient');
  const output = nodeOutput(run, 'MCP Client');
  expect({ output: output.length, log: output.length === 1 ? '' : `${stdout}\n${stderr}`.slice(-3000) }).toEqual({ output: 1, log: '' });
  const [record] = (output[0]!.structuredContent as { records: Array<Record<string, unknown>> }).records;
  expect(record).toMatchObject({ created: true, targetUrl: 'https://example.org/from-n8n?utm_source=n8n' });
  expect(sandbox.links(accountId).filter((link) => link.targetUrl === 'https://example.org/from-n8n?utm_source=n8n')).toHaveLength(1);
});
