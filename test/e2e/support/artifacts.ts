/**
 * What we ship, built the way a release builds it: the n8n package as an `npm pack` tarball and the
 * Zapier app as `zapier-platform build`'s zip. Built once per e2e run (global setup) into one folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { node24Env, repoRoot } from '../../../scripts/n8n/runtime';

export const N8N_WORKSPACE = 'n8n-nodes-shortlink';
export const ZAPIER_WORKSPACE = 'shortlink-zapier';

function npm(args: string[], cwd = repoRoot): string {
  return execFileSync('npm', args, { cwd, env: node24Env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
}

/** `npm run build` then `npm pack` of the n8n package; returns the tarball's path. */
export function packN8nPackage(outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  npm(['run', 'build', '-w', N8N_WORKSPACE]);
  const output = npm(['pack', '-w', N8N_WORKSPACE, '--pack-destination', outDir, '--json']);
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  const tarball = join(outDir, packed!.filename.replace(/^.*\//, ''));
  if (!existsSync(tarball)) throw new Error(`npm pack reported ${packed!.filename} but ${tarball} does not exist.`);
  return tarball;
}

/** The Zapier app's build (bundle, then `zapier-platform build` through its gates script); returns build/build.zip. */
export function buildZapierZip(): string {
  npm(['run', 'build', '-w', ZAPIER_WORKSPACE]);
  npm(['run', 'test:gates', '-w', ZAPIER_WORKSPACE]);
  const zip = join(repoRoot, 'packages', 'zapier', 'build', 'build.zip');
  if (!existsSync(zip)) throw new Error(`The Zapier build produced no ${zip}.`);
  return zip;
}

/** The newest file in `dir` whose name ends with `suffix`. */
export function findFile(dir: string, suffix: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((file) => file.endsWith(suffix));
  return name ? join(dir, name) : undefined;
}
