// The Zapier gates (`npm run test:gates -w shortlink-zapier`), run after `npm run build`:
//  1. `zapier-platform validate --without-style`: the app definition passes Zapier's schema (offline).
//  2. `zapier-platform build --skip-dep-install --skip-validation`: build/build.zip is produced and the
//     CLI's own "Testing build" step (unzip, load zapierwrapper.js and index.js) passes.
// The CLI runs on this Node (it needs >= 22); a failing step fails the script with its output.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('zapier-platform-cli/package.json');
const cliBin = join(dirname(cliPackage), require(cliPackage).bin['zapier-platform']);

function zapier(args, mustSay) {
  console.log(`\n$ zapier-platform ${args.join(' ')}`);
  const run = spawnSync(process.execPath, [cliBin, ...args], {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 180_000,
    // A gate sends no analytics (the CLI honours this variable).
    env: { ...process.env, DISABLE_ZAPIER_ANALYTICS: '1', NO_COLOR: '1' },
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  process.stdout.write(output);
  if (run.status !== 0 || !output.includes(mustSay)) {
    console.error(`\nGate failed: zapier-platform ${args[0]} (exit ${run.status}${run.error ? `, ${run.error.message}` : ''}).`);
    process.exit(1);
  }
}

zapier(['validate', '--without-style'], 'No structural errors found');
zapier(['build', '--skip-dep-install', '--skip-validation'], 'Build complete!');
const zip = join(appDir, 'build', 'build.zip');
if (!existsSync(zip) || statSync(zip).size === 0) {
  console.error('Gate failed: build/build.zip is missing or empty.');
  process.exit(1);
}
console.log(`\nZapier gates passed: validate clean, ${zip} built and its "Testing build" step passed.`);
