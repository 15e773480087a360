/**
 * Starts the server as a client would (the bin's source through tsx, in its own process) and connects the
 * SDK's own client over stdio or Streamable HTTP. Everything the process writes to stderr is kept, so tests
 * can check that the key never appears in a log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = join(__dirname, '..', '..', '..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
export const CLI_SOURCE = join(ROOT, 'packages', 'mcp', 'src', 'cli.ts');

export type Env = Record<string, string>;

/** The bearer token the HTTP servers of the tests are started with (SHORTLINK_MCP_TOKEN). */
export const TEST_TOKEN = 'test-token-0123456789abcdef0123456789';

export function serverEnv(baseUrl: string, apiKey: string, extra: Env = {}): Env {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SHORTLINK_BASE_URL: baseUrl, SHORTLINK_API_KEY: apiKey, SHORTLINK_MCP_TOKEN: TEST_TOKEN, ...extra };
}

export interface McpSession {
  client: Client;
  /** The HTTP endpoint (HTTP sessions only). */
  url?: string;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

function session(client: Client, stderr: () => string, close: () => Promise<void>, url?: string): McpSession {
  return {
    client,
    url,
    stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close,
  };
}

export async function startStdio(env: Env, args: string[] = []): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSX, CLI_SOURCE, ...args], env, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: 'shortlink-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return session(client, () => log, () => client.close());
}

/**
 * Spawns a command and waits for its "ready on <url>" line (or its exit). In a process group of its own, so
 * that stopChild also ends what it started (npx runs the server as its child).
 */
export function spawnServer(command: string, args: string[], env: Env): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const ready = /ready on (http:\/\/\S+)/.exec(log);
      if (ready) resolve({ child, url: ready[1]!, stderr: () => log });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${log}`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The group this harness created for it (spawnServer), by its id: the server and any process it started.
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  await exited;
}

/** The SDK's client over Streamable HTTP, sending the token (and any other headers) as a configured client does. */
export async function connectHttp(url: string, headers: Record<string, string> = {}, token: string | undefined = TEST_TOKEN): Promise<Client> {
  const client = new Client({ name: 'shortlink-mcp-test', version: '1.0.0' });
  const sent = token === undefined ? headers : { Authorization: `Bearer ${token}`, ...headers };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: sent } }));
  return client;
}

export async function startHttp(env: Env, args: string[] = [], headers: Record<string, string> = {}): Promise<McpSession> {
  const { child, url, stderr } = await spawnServer(process.execPath, [TSX, CLI_SOURCE, '--http', '--port', '0', ...args], env);
  const client = await connectHttp(url, headers);
  return session(
    client,
    stderr,
    async () => {
      await client.close();
      await stopChild(child);
    },
    url,
  );
}

/** Runs the bin to its end (for startup errors): exit code and stderr. */
export function runToExit(env: Env, args: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [TSX, CLI_SOURCE, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export function recordsOf(result: CallToolResult): Record<string, unknown>[] {
  if (result.isError) throw new Error(`Tool error: ${textOf(result)}`);
  return (result.structuredContent as { records: Record<string, unknown>[] }).records;
}

export function summaryOf(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent as { summary?: Record<string, unknown> }).summary ?? {};
}
