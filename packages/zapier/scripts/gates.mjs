// The Zapier gates (`npm run test:gates -w shortlink-zapier`), run after `npm run build` (which makes
// build/build.zip through scripts/build-zip.mjs and its CLI "Testing build" step):
//  1. `zapier-platform validate --without-style`: the app definition passes Zapier's schema (offline).
//  2. build/build.zip is there and holds what Zapier should get (zip-contents.cjs): no symlinks, the app's
//     files once each, no TypeScript.
// The CLI runs on this Node (it needs >= 22); a failing step fails the script with its output.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zipContents from './zip-contents.cjs';

const { zipProblems } = zipContents;

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('zapier-platform-cli/package.json');
const cliBin = join(dirname(cliPackage), require(cliPackage).bin['zapier-platform']);

console.log('\n$ zapier-platform validate --without-style');
const run = spawnSync(process.execPath, [cliBin, 'validate', '--without-style'], {
  cwd: appDir,
  encoding: 'utf8',
  timeout: 180_000,
  // A gate sends no analytics (the CLI honours this variable).
  env: { ...process.env, DISABLE_ZAPIER_ANALYTICS: '1', NO_COLOR: '1' },
});
const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
process.stdout.write(output);
if (run.status !== 0 || !output.includes('No structural errors found')) {
  console.error(`\nGate failed: zapier-platform validate (exit ${run.status}${run.error ? `, ${run.error.message}` : ''}).`);
  process.exit(1);
}

const zip = join(appDir, 'build', 'build.zip');
if (!existsSync(zip)) {
  console.error('Gate failed: build/build.zip is missing: run `npm run build -w shortlink-zapier` first.');
  process.exit(1);
}
const { problems, names } = zipProblems(zip);
if (problems.length > 0) {
  console.error(`Gate failed: build/build.zip: ${problems.join('; ')}`);
  process.exit(1);
}
console.log(`\nZapier gates passed: validate clean; ${zip} holds ${names.length} files, no symlinks, the app's files once each.`);
