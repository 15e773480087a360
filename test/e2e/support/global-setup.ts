/**
 * Runs once before the e2e suites: makes sure the real n8n runtime is in the cache (installing it on
 * the first run, with progress on the terminal) and packs the n8n package the way a release does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chosenN8nVersion, ensureN8nRuntime } from '../../../scripts/n8n/runtime';
import { packN8nPackage } from './artifacts';

export default async function globalSetup(): Promise<void> {
  const runtime = await ensureN8nRuntime({ version: chosenN8nVersion() });
  process.env.SHORTLINK_E2E_N8N_DIR = runtime.dir;
  const artifacts = mkdtempSync(join(tmpdir(), 'shortlink-e2e-'));
  process.env.SHORTLINK_E2E_ARTIFACTS = artifacts;
  process.env.SHORTLINK_E2E_TARBALL = packN8nPackage(artifacts);
  process.stderr.write(`\ne2e: n8n ${runtime.version} from ${runtime.dir}; package packed to ${process.env.SHORTLINK_E2E_TARBALL}\n`);
}
