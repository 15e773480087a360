// `npm run release -w shortlink-zapier`: pushes this version of the app to Zapier. See RELEASING.md.
//
// On GitHub Actions (.github/workflows/release-zapier.yml, on the tag shortlink-zapier@<version>): checks the
// tag, the changelog (`zapier-platform promote` reads it), the deploy key and the app link (.zapierapprc),
// builds, validates with Zapier's online checks and pushes. Anywhere else it runs the checks that need no CI
// and says how to release: versions reach Zapier from the tagged commit only.
// `--preflight`: the checks only, also on GitHub Actions.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { changelogProblems, releaseOrExplain, run, tagOf, tagProblems, versionProblems } from '../../../scripts/release/checks.mjs';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
const env = process.env;
const onGitHubActions = env.GITHUB_ACTIONS === 'true';
const preflight = process.argv.includes('--preflight');

/** `zapier-platform register` (once) writes the app's id here; push uploads to that app. */
function appLinkProblems() {
  const file = join(appDir, '.zapierapprc');
  let id;
  try {
    id = JSON.parse(readFileSync(file, 'utf8')).id;
  } catch {
    id = undefined;
  }
  return Number.isInteger(id)
    ? []
    : ['packages/zapier/.zapierapprc with the app id is missing: run `zapier-platform register "Short Link"` once there and commit the file'];
}

const problems = [
  ...versionProblems(pkg),
  ...changelogProblems(appDir, pkg.version),
  ...(onGitHubActions
    ? [
        ...tagProblems(pkg, env),
        ...appLinkProblems(),
        ...(env.ZAPIER_DEPLOY_KEY ? [] : ['ZAPIER_DEPLOY_KEY is empty: add the deploy key as a repository secret (RELEASING.md)']),
      ]
    : []),
];

releaseOrExplain({
  pkg,
  problems,
  onGitHubActions,
  preflight,
  workflow: 'release-zapier.yml',
  note: '(For a private test version from this machine: zapier-platform push --snapshot <label>, see README.md.)',
});

// The CLI reads ZAPIER_DEPLOY_KEY from the environment (no ~/.zapierrc on a runner) and needs Node >= 22:
// this process runs on the project's Node 24.
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('zapier-platform-cli/package.json');
const cli = join(dirname(cliPackage), require(cliPackage).bin['zapier-platform']);
const inApp = { cwd: appDir, env: { ...env, DISABLE_ZAPIER_ANALYTICS: '1' } };

run('npm', ['run', 'build'], inApp); // build/build.zip, flat, no symlinks (scripts/build-zip.mjs)
if (!existsSync(join(appDir, 'build', 'build.zip'))) throw new Error('the build made no build/build.zip');
run(process.execPath, [cli, 'validate'], inApp); // schema and Zapier's online style checks
// upload, not push: push would zip again from the workspace (symlinks, files twice); upload sends the zips built above.
run(process.execPath, [cli, 'upload'], inApp);
console.log(`\nPushed ${tagOf(pkg)} to Zapier. Promote and migrate users by hand: RELEASING.md.`);
