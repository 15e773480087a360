// What build/build.zip must hold, checked by the build (build-zip.mjs), the gates (gates.mjs) and
// test/build.zip.test.ts:
// no symlink, the app's own files once each at the top, no TypeScript sources of the workspace.
'use strict';
const { spawnSync } = require('node:child_process');

const APP_FILES = ['definition.json', 'dist/app.js', 'index.js', 'package.json', 'zapierwrapper.js'];

/** Problems with the zip at `zip` ([] when none), and its file names. */
function zipProblems(zip) {
  const listing = spawnSync('zipinfo', [zip], { encoding: 'utf8' });
  if (listing.status !== 0) return { problems: [`zipinfo could not read ${zip}: ${listing.stderr || listing.error?.message}`], names: [] };
  const entries = listing.stdout.split('\n').filter((line) => /^[-dl]/.test(line));
  const names = entries.map((line) => line.split(/\s+/).slice(8).join(' '));
  const problems = [];
  const links = entries.filter((line) => line.startsWith('l'));
  if (links.length > 0) problems.push(`it holds symlinks:\n${links.join('\n')}`);
  const outside = names.filter((name) => !name.startsWith('node_modules/'));
  const unexpected = outside.filter((name) => !APP_FILES.includes(name));
  if (unexpected.length > 0) problems.push(`it holds files besides the app's own and node_modules: ${unexpected.join(', ')}`);
  for (const own of APP_FILES) {
    const count = names.filter((name) => name === own).length;
    if (count !== 1) problems.push(`it holds ${own} ${count} times (once expected)`);
  }
  const typescript = names.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
  if (typescript.length > 0) problems.push(`it holds TypeScript sources: ${typescript.slice(0, 5).join(', ')}`);
  return { problems, names };
}

module.exports = { APP_FILES, zipProblems };
