/**
 * The MCP suites nobody here wrote, as the e2e runs them on the project's Node 24:
 * - `@modelcontextprotocol/conformance` (a devDependency; it needs Node ≥ 22 and tests servers by URL over
 *   Streamable HTTP): every scenario, its checks read from the files it writes;
 * - the official MCP Inspector's CLI mode (`@modelcontextprotocol/inspector`, about 110 MB with its web UI,
 *   so not a devDependency): installed once into the cache beside the n8n runtime, checked before use.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, nodeBinary, node24Env, repoRoot, runtimeInstallEnv } from '../../../scripts/n8n/runtime';

export const INSPECTOR_VERSION = '2.12.0';

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? node24Env(), timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Runs every scenario of the conformance suite against `url`; the checks of each scenario by its name. */
export async function runConformance(url: string, outDir: string): Promise<Map<string, Check[]>> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const cli = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const { stdout, stderr } = await run(nodeBinary(), [cli, 'server', '--url', url, '--suite', 'all', '-o', outDir], { timeoutMs: 600_000 });
  const results = new Map<string, Check[]>();
  for (const entry of readdirSync(outDir)) {
    // Folders are named server-<scenario>-<ISO time with dashes>.
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (scenario && existsSync(join(outDir, entry, 'checks.json'))) results.set(scenario, JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  if (results.size === 0) throw new Error(`conformance wrote no results:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
  return results;
}

/** The Inspector's launcher, installed into the cache on first use (npm with scripts off, as the project installs). */
export async function ensureInspector(): Promise<string> {
  const dir = join(cacheRoot(), '..', 'shortlink-mcp-tools', `inspector-${INSPECTOR_VERSION}`);
  const bin = join(dir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  if (!existsSync(join(dir, '.installed')) || !existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shortlink-mcp-inspector', private: true }));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`], { cwd: dir, env: runtimeInstallEnv() });
    if (installed.code !== 0) throw new Error(`Installing the MCP Inspector failed:\n${installed.stderr.slice(-3000)}`);
  }
  // Trusted only after it runs: the version it prints.
  const version = await run(nodeBinary(), [bin, '--version']);
  if (!version.stdout.includes(INSPECTOR_VERSION)) throw new Error(`The cached MCP Inspector does not run: ${version.stdout}${version.stderr}`);
  writeFileSync(join(dir, '.installed'), INSPECTOR_VERSION);
  return bin;
}

/** One Inspector CLI run (`--cli …`); its JSON answer. */
export async function inspectorCli(bin: string, args: string[], env: NodeJS.ProcessEnv = node24Env()): Promise<unknown> {
  const { code, stdout, stderr } = await run(nodeBinary(), [bin, '--cli', ...args], { env });
  if (code !== 0) throw new Error(`inspector --cli ${args.join(' ')} exited ${code}:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
  return JSON.parse(stdout) as unknown;
}
