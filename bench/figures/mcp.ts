/**
 * MCP figures: what a tool call adds over the core call it makes, and how long the server takes to start.
 * The same read (Get, one link by its ID) against a local sandbox with no rate limit: runOperation in this
 * process on the fetch transport (what the server runs), versus the tool `link_get` through the SDK's client
 * and the built server (packages/mcp/dist/cli.js) in its own process, over stdio and over Streamable HTTP.
 * Rounds interleave the variants and rotate their order; a variant's figure is the median per-call time
 * over the rounds (round 0 is a warm-up). Start time: spawn to "ready" (HTTP, after its key check), median
 * of several starts.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient, timerSleep } from '@shortlink/core';
import { createFetchTransport } from '@shortlink/core/host';
import { operationByKey, runOperation } from '@shortlink/core/operations';
import { startSandbox } from '@shortlink/sandbox';
import { row, type ResultRow } from '../lib/results';
import { median } from '../lib/statistics';
import { seedLinks } from '../lib/seed-links';

type Batch = (count: number) => Promise<void>;

export interface McpOptions {
  ROOT: string;
  rounds: number;
  batch: number;
  starts: number;
  log: (line: string) => void;
}

/** Starts the built server over HTTP on a free port; resolves with its URL and the ms to its "ready" line. */
function startHttpServer(cli: string, env: Record<string, string>): Promise<{ url: string; ms: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, '--http', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const ready = /ready on (http:\/\/\S+)/.exec(log);
      if (ready) {
        const ms = performance.now() - started;
        resolve({ url: ready[1]!, ms, stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${log}`)));
  });
}

function toolBatch(client: Client, id: string): Batch {
  return async (count) => {
    for (let i = 0; i < count; i++) {
      const result = await client.callTool({ name: 'link_get', arguments: { link: id } });
      if (result.isError) throw new Error(`link_get failed: ${JSON.stringify(result.content)}`);
    }
  };
}

export async function mcpFigures({ ROOT, rounds, batch, starts, log }: McpOptions): Promise<ResultRow[]> {
  const cli = join(ROOT, 'packages', 'mcp', 'dist', 'cli.js');
  const sandbox = await startSandbox({ rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } });
  const closers: Array<() => Promise<void>> = [];
  try {
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey };
    const [id] = await seedLinks(target, 1, 'mcp');
    const env = { PATH: process.env.PATH ?? '', SHORTLINK_BASE_URL: sandbox.baseUrl, SHORTLINK_API_KEY: sandbox.apiKey };

    const coreClient = createClient({ ...target, transport: createFetchTransport({ apiKey: sandbox.apiKey }), sleep: timerSleep });
    const get = operationByKey('link.get');
    const core: Batch = async (count) => {
      for (let i = 0; i < count; i++) await runOperation(get, coreClient, { link: id });
    };

    const stdioClient = new Client({ name: 'bench', version: '1' });
    await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: [cli], env, stderr: 'ignore' }));
    closers.push(() => stdioClient.close());
    const http = await startHttpServer(cli, env);
    closers.push(http.stop);
    const httpClient = new Client({ name: 'bench', version: '1' });
    await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closers.push(() => httpClient.close());

    const variants: Record<string, Batch> = { core, stdio: toolBatch(stdioClient, id!), http: toolBatch(httpClient, id!) };
    const names = Object.keys(variants);
    const perCallMs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    log(`mcp: ${rounds} rounds × ${batch} calls per variant …`);
    for (let round = 0; round < rounds; round++) {
      for (const name of names.map((_, i) => names[(i + round) % names.length]!)) {
        const started = performance.now();
        await variants[name]!(batch);
        if (round > 0) perCallMs[name]!.push((performance.now() - started) / batch);
      }
    }
    const coreMs = median(perCallMs.core!);
    const stdioMs = median(perCallMs.stdio!);
    const httpMs = median(perCallMs.http!);

    log(`mcp: ${starts} starts …`);
    const startMs: number[] = [];
    for (let i = 0; i < starts; i++) {
      const server = await startHttpServer(cli, env);
      startMs.push(server.ms);
      await server.stop();
    }
    const startMedian = median(startMs);
    log(`  median per call: core ${coreMs.toFixed(3)} ms, MCP stdio ${stdioMs.toFixed(3)} ms, MCP HTTP ${httpMs.toFixed(3)} ms; start ${startMedian.toFixed(0)} ms`);
    const method = `medians of ${rounds - 1} batches of ${batch} calls`;
    return [
      row('MCP: tool call link_get over stdio vs the core call (Get)', stdioMs / coreMs, '× core', null, `core ${coreMs.toFixed(3)} ms`, `stdio ${stdioMs.toFixed(3)} ms per call; ${method}`),
      row('MCP: tool call link_get over Streamable HTTP vs the core call (Get)', httpMs / coreMs, '× core', null, `core ${coreMs.toFixed(3)} ms`, `HTTP ${httpMs.toFixed(3)} ms per call (stateless: a server per request); ${method}`),
      row('MCP: server start, spawn to ready (HTTP, key checked)', startMedian, 'ms', null, null, `median of ${starts} starts of node dist/cli.js --http; includes the GET /me key check`),
    ];
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await sandbox.close();
  }
}
