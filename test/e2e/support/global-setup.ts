/**
 * Runs once before the e2e suites: makes sure the real n8n runtime is in the cache (installing it on the first
 * run, with progress on the terminal) and builds the n8n package as it is published: the standalone tree in an
 * empty folder, `n8n-node build`, `n8n-node lint`, the packaging gates, `npm pack` (support/standalone-tree.ts).
 * Every suite installs that tarball. SHORTLINK_E2E_PACKAGE=workspace packs the workspace build instead.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chosenN8nVersion, ensureN8nRuntime } from '../../../scripts/n8n/runtime';
import { packN8nPackage } from './artifacts';
import { buildStandaloneTarball } from './standalone-tree';

export default async function globalSetup(): Promise<void> {
  const runtime = await ensureN8nRuntime({ version: chosenN8nVersion() });
  process.env.SHORTLINK_E2E_N8N_DIR = runtime.dir;
  const artifacts = mkdtempSync(join(tmpdir(), 'shortlink-e2e-'));
  process.env.SHORTLINK_E2E_ARTIFACTS = artifacts;
  const log = (line: string) => process.stderr.write(`e2e: ${line}\n`);
  if (process.env.SHORTLINK_E2E_PACKAGE === 'workspace') {
    process.env.SHORTLINK_E2E_TARBALL = packN8nPackage(artifacts);
    process.env.SHORTLINK_E2E_TARBALL_SOURCE = 'workspace';
  } else {
    const started = Date.now();
    const built = buildStandaloneTarball(artifacts, log);
    process.env.SHORTLINK_E2E_TARBALL = built.tarball;
    process.env.SHORTLINK_E2E_TARBALL_SOURCE = 'standalone';
    process.env.SHORTLINK_E2E_STANDALONE_DIR = built.treeDir;
    log(`the standalone tree in ${((Date.now() - started) / 1000).toFixed(0)} s (${Object.entries(built.seconds).map(([name, s]) => `${name} ${s} s`).join(', ')})`);
  }
  process.stderr.write(`\ne2e: n8n ${runtime.version} from ${runtime.dir}; package (${process.env.SHORTLINK_E2E_TARBALL_SOURCE}) packed to ${process.env.SHORTLINK_E2E_TARBALL}\n`);
}
