// Gates of the shipped package (run by `npm test` after the build): the bin runs with plain Node and says
// its version, the bundle carries the core (no workspace or axios import left), and the tarball holds only
// dist, the README and package.json, with the MCP SDK as its one dependency.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const failures = [];
const gate = (ok, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) failures.push(text);
};

const cli = join(packageDir, pkg.bin['shortlink-mcp']);
// The bin writes to stderr (stdout is the protocol's on stdio).
const printed = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).stderr.trim();
gate(printed === pkg.version, `the bin runs with plain Node and --version prints the package version (${printed})`);

const bundle = readFileSync(cli, 'utf8');
gate(bundle.startsWith('#!/usr/bin/env node'), 'the bin starts with a node shebang');
gate(!/require\(["'](@shortlink\/|axios)/.test(bundle), 'the core is bundled: no @shortlink/* or axios require left');

const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const files = packed.files.map((file) => file.path).sort();
gate(files.every((file) => file.startsWith('dist/') || file === 'README.md' || file === 'package.json'), `the tarball ships only dist, README.md and package.json (${files.join(', ')})`);
gate(JSON.stringify(Object.keys(pkg.dependencies ?? {})) === JSON.stringify(['@modelcontextprotocol/sdk']), 'its one dependency is @modelcontextprotocol/sdk');

if (failures.length > 0) {
  console.error(`\n${failures.length} gate(s) failed.`);
  process.exit(1);
}
console.log('\nAll gates passed.');
