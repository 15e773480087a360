/**
 * What n8n's queue mode needs besides n8n: Redis (the queue) and Postgres (the database every process
 * shares), from Debian's packages. Each run starts private instances on loopback, with their data in a
 * temporary folder, and stops them again; nothing touches a system-wide Redis or Postgres cluster.
 * The packages are installed when missing (apt-get, as root), with a line saying so.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { runChild } from './run-child';
import type { Log } from './runtime';

const stderrLog: Log = (line) => process.stderr.write(`${line}\n`);

/** The Debian packages, and the programs of them that are used. */
export const QUEUE_PACKAGES = ['redis-server', 'postgresql'] as const;

export interface QueueBinaries {
  redisServer: string;
  /** Folder of initdb, postgres, pg_isready and psql (Debian keeps them out of the PATH). */
  postgresBin: string;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The newest Postgres of Debian's layout (/usr/lib/postgresql/<major>/bin), else initdb's folder on the PATH. */
function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(root, majors[0], 'bin');
  }
  const initdb = onPath('initdb');
  return initdb ? join(initdb, '..') : undefined;
}

/** The binaries when both packages are there; otherwise the packages missing. */
export function findQueueBinaries(): QueueBinaries | { missing: string[] } {
  const redisServer = onPath('redis-server') ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
  const postgresBin = postgresBinDir();
  const missing = [...(redisServer ? [] : ['redis-server']), ...(postgresBin ? [] : ['postgresql'])];
  return redisServer && postgresBin ? { redisServer, postgresBin } : { missing };
}

function apt(args: string[], log: Log): void {
  log(`  apt-get ${args.join(' ')}`);
  // Another install may hold dpkg's lock: wait for it instead of failing.
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 900_000,
  });
}

/**
 * Redis and Postgres from Debian's packages: found, or installed now when this process is root (apt-get
 * update once, then install), or an error that says what to install. Running it again changes nothing.
 */
export function ensureQueueBinaries(log: Log = stderrLog): QueueBinaries {
  const found = findQueueBinaries();
  if (!('missing' in found)) return found;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    throw new Error(
      `n8n's queue mode needs Redis and Postgres, and ${found.missing.join(' and ')} is not installed. ` +
        `Install Debian's packages as root: apt-get update && apt-get install -y ${QUEUE_PACKAGES.join(' ')}`,
    );
  }
  log(`Queue mode needs ${found.missing.join(' and ')}, which is not installed: installing Debian's packages ${QUEUE_PACKAGES.join(' ')}…`);
  const started = Date.now();
  apt(['update', '-q'], log);
  apt(['install', '-y', '-q', '--no-install-recommends', ...QUEUE_PACKAGES], log);
  const installed = findQueueBinaries();
  if ('missing' in installed) throw new Error(`apt-get installed ${QUEUE_PACKAGES.join(' ')}, but ${installed.missing.join(' and ')} is still not found.`);
  log(`  installed in ${Math.round((Date.now() - started) / 1000)} s.`);
  return installed;
}

/** Children still running, ended when this process exits in any way (a failed test must not leave a database behind). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Ends a child: `signal` first, SIGKILL when it lingers. */
function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Keeps the last lines a child printed, for the error when it fails. */
function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited early (code ${child.exitCode}):\n${output()}`);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not get ready within ${timeoutMs / 1000} s:\n${output()}`);
}

/** Redis answers PING on the port. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });
}

export interface RunningRedis {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** A private Redis on loopback: no persistence, its folder in `dir`. */
export async function startRedis(binaries: QueueBinaries, dir: string): Promise<RunningRedis> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
  const child = track(spawn(binaries.redisServer, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  const output = collectOutput(child);
  try {
    await waitUntil(() => redisAnswers(port), 30_000, 'redis-server', child, output);
  } catch (error) {
    await stopChild(child, 'SIGKILL');
    throw error;
  }
  return { host: '127.0.0.1', port, stop: () => stopChild(child, 'SIGTERM') };
}

export interface RunningPostgres {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * Postgres refuses to run as root: as root, the cluster belongs to Debian's `postgres` user (created by
 * the package), otherwise to whoever runs this.
 */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('Running as root, but there is no `postgres` user to run Postgres as (Debian\'s postgresql package creates it).');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function runToEnd(command: string, args: string[], owner: { uid: number; gid: number } | undefined, timeoutMs = 120_000): Promise<void> {
  const result = await runChild(command, args, { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } }, timeoutMs);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-4000)}`);
}

/**
 * A private Postgres on loopback in `dir` (its cluster, socket and log), a database for n8n, trust
 * authentication on loopback only. Tuned for a throw-away test database (no fsync).
 */
export async function startPostgres(binaries: QueueBinaries, dir: string): Promise<RunningPostgres> {
  const owner = clusterOwner();
  mkdirSync(dir, { recursive: true });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const user = 'n8n';
  const bin = (name: string) => join(binaries.postgresBin, name);
  await runToEnd(bin('initdb'), ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], owner);
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'shared_buffers=32MB', 'max_connections=60'];
  const child = track(
    spawn(bin('postgres'), ['-D', data, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(owner ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
    }),
  );
  const output = collectOutput(child);
  const ready = () =>
    runToEnd(bin('pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres'], owner, 10_000).then(
      () => true,
      () => false,
    );
  try {
    await waitUntil(ready, 60_000, 'postgres', child, output);
    await runToEnd(bin('psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', 'CREATE DATABASE n8n'], owner);
  } catch (error) {
    await stopChild(child, 'SIGKILL');
    throw error;
  }
  // SIGINT: Postgres' fast shutdown (ends the sessions, no waiting for clients).
  return { host: '127.0.0.1', port, database: 'n8n', user, password: 'n8n-local', stop: () => stopChild(child, 'SIGINT') };
}

export interface QueueServices {
  redis: RunningRedis;
  postgres: RunningPostgres;
  /** Stops both and removes their folder. */
  stop(): Promise<void>;
}

/** Redis and Postgres for one queue-mode n8n, in a new temporary folder; `stop()` leaves nothing behind. */
export async function startQueueServices(log: Log = stderrLog): Promise<QueueServices> {
  const binaries = ensureQueueBinaries(log);
  const root = mkdtempSync(join(tmpdir(), 'shortlink-queue-'));
  // Postgres may run as another user (see clusterOwner), who must reach its folder inside.
  chmodSync(root, 0o755);
  let redis: RunningRedis | undefined;
  let postgres: RunningPostgres | undefined;
  const stop = async () => {
    await Promise.all([redis?.stop(), postgres?.stop()]);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    redis = await startRedis(binaries, join(root, 'redis'));
    postgres = await startPostgres(binaries, join(root, 'postgres'));
  } catch (error) {
    await stop();
    throw error;
  }
  return { redis, postgres, stop };
}
