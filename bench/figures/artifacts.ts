/**
 * Figure 5: what users install. The n8n package's tarball as npm would publish it (`npm pack --dry-run`,
 * after the build) and its runtime dependencies: the declared ones plus any module the built files require
 * that is neither a Node built-in nor the n8n-workflow peer. The Zapier upload (build/build.zip from
 * `zapier-platform build`, made by the app's build). Cold `require` of the built Zapier app against bare
 * zapier-platform-core, each load in a fresh child process, alternating, median of many.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { row, type ResultRow } from '../lib/results';
import { median } from '../lib/statistics';
import { ZAPIER_APP } from '../hosts/zapier-host';

const runChild = promisify(execFile);

/** Runs in the child: times one require of BENCH_MODULE, nothing else. */
const COLD_REQUIRE = `
const started = process.hrtime.bigint();
require(process.env.BENCH_MODULE);
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6));
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Bare module names the built files require, without Node built-ins and relative paths. */
function requiredPackages(dir: string): Set<string> {
  const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  const found = new Set<string>();
  for (const file of filesUnder(dir).filter((f) => f.endsWith('.js'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)) {
      const name = match[1]!;
      if (name.startsWith('.') || name.startsWith('/') || builtins.has(name)) continue;
      found.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!);
    }
  }
  return found;
}

async function coldRequireMs(modulePath: string, cwd: string): Promise<number> {
  const { stdout } = await runChild(process.execPath, ['-e', COLD_REQUIRE], { cwd, env: { ...process.env, BENCH_MODULE: modulePath } });
  return Number(stdout);
}

export interface ArtifactOptions {
  ROOT: string;
  coldRequireRuns: number;
  /** Workspaces whose build failed in this run: what lies on disk is not their current artifact. */
  failedBuilds: ReadonlySet<string>;
  log: (line: string) => void;
}

/** A row measured on a failed build's leftovers is not a result. */
function unlessBuildFailed(failed: boolean, result: ResultRow): ResultRow {
  if (!failed) return result;
  return { ...result, met: false, note: `the build failed in this run; measured what was left on disk. ${result.note ?? ''}`.trim() };
}

export async function artifactFigures({ ROOT, coldRequireRuns, failedBuilds, log }: ArtifactOptions): Promise<ResultRow[]> {
  const n8nDir = join(ROOT, 'packages', 'n8n-nodes-shortlink');
  const zapierDir = join(ROOT, 'packages', 'zapier');

  log('artifacts: npm pack --dry-run (n8n) …');
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: n8nDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{
    size: number;
    unpackedSize: number;
    entryCount: number;
  }>;
  const manifest = JSON.parse(readFileSync(join(n8nDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}));
  for (const name of requiredPackages(join(n8nDir, 'dist'))) if (!(name in (manifest.peerDependencies ?? {}))) runtime.add(name);

  const zipBytes = statSync(join(zapierDir, 'build', 'build.zip')).size;

  log(`artifacts: cold require, ${coldRequireRuns} child processes each …`);
  const coreModule = require.resolve('zapier-platform-core', { paths: [zapierDir] });
  const appTimes: number[] = [];
  const coreTimes: number[] = [];
  await coldRequireMs(ZAPIER_APP, zapierDir); // warms the file-system cache, not measured
  for (let i = 0; i < coldRequireRuns; i++) {
    coreTimes.push(await coldRequireMs(coreModule, zapierDir));
    appTimes.push(await coldRequireMs(ZAPIER_APP, zapierDir));
  }
  const appMs = median(appTimes);
  const coreMs = median(coreTimes);
  log(`  n8n tarball ${packed!.size} B, runtime deps [${[...runtime].join(', ')}]; zip ${zipBytes} B; require app ${appMs.toFixed(1)} ms vs core ${coreMs.toFixed(1)} ms`);

  const n8nFailed = failedBuilds.has('n8n-nodes-shortlink');
  const zapierFailed = failedBuilds.has('shortlink-zapier');
  return [
    unlessBuildFailed(
      n8nFailed,
      row('Artifact: n8n package tarball', packed!.size / 1024, 'KB', { op: '<=', target: 120 }, null, `core, QR encoder and deflate bundled; ${packed!.entryCount} files, ${(packed!.unpackedSize / 1024).toFixed(1)} KB unpacked`),
    ),
    unlessBuildFailed(
      n8nFailed,
      row('Artifact: n8n runtime dependencies', runtime.size, 'packages', { op: '=', target: 0 }, null, runtime.size > 0 ? [...runtime].join(', ') : 'n8n-workflow is a peer'),
    ),
    unlessBuildFailed(zapierFailed, row('Artifact: Zapier build.zip', zipBytes / 1024, 'KB', null, null, 'zapier-platform build: the app plus zapier-platform-core and its dependencies')),
    unlessBuildFailed(
      zapierFailed,
      row('Artifact: cold require of the Zapier app vs bare zapier-platform-core', appMs / coreMs, '× core', { op: '<=', target: 1.2 }, `core ${coreMs.toFixed(1)} ms`, `app ${appMs.toFixed(1)} ms; medians of ${coldRequireRuns} child processes each`),
    ),
  ];
}
