// Gates of the shipped package (run by `npm test` after the build): the bin runs with plain Node and says
// its version, the bundle carries the core (no workspace or axios import left), and the tarball holds only
// dist, the README and package.json, with the MCP SDK as its one dependency. Then what makes it findable:
// server.json for the MCP Registry (its rules, and the same name, version and settings as the package) and
// the desktop-extension bundle, built from the bundled server and validated by the official mcpb tool.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMcpb } from './build-mcpb.mjs';

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
console.log(`     npm tarball: ${(packed.size / 1024).toFixed(0)} KB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KB unpacked`);
gate(files.every((file) => file.startsWith('dist/') || file === 'README.md' || file === 'package.json'), `the tarball ships only dist, README.md and package.json (${files.join(', ')})`);
gate(JSON.stringify(Object.keys(pkg.dependencies ?? {})) === JSON.stringify(['@modelcontextprotocol/sdk']), 'its one dependency is @modelcontextprotocol/sdk');

// ---- server.json (MCP Registry) ----
const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const serverJson = JSON.parse(readFileSync(join(packageDir, 'server.json'), 'utf8'));
const rules = ajv.compile(JSON.parse(readFileSync(join(packageDir, 'scripts', 'registry-rules.schema.json'), 'utf8')));
gate(rules(serverJson), `server.json follows the MCP Registry's server.json rules${rules.errors ? `: ${ajv.errorsText(rules.errors)}` : ''}`);
const [npmPackage] = serverJson.packages ?? [];
gate(serverJson.name === pkg.mcpName, `server.json's name is package.json's mcpName (the registry checks npm ownership by it): ${serverJson.name}`);
gate(serverJson.version === pkg.version && npmPackage?.version === pkg.version && npmPackage?.identifier === pkg.name, `server.json names this package and version (${npmPackage?.identifier}@${npmPackage?.version})`);
const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stderr;
const settings = (npmPackage?.environmentVariables ?? []).map((variable) => variable.name);
gate(settings.length > 0 && settings.every((name) => help.includes(name)), `server.json's settings are the server's (--help names ${settings.join(', ')})`);
gate(npmPackage?.environmentVariables?.find((variable) => variable.name === 'SHORTLINK_API_KEY')?.isSecret === true, 'server.json marks SHORTLINK_API_KEY as a secret');

// ---- the desktop extension (.mcpb) ----
const mcpb = await buildMcpb();
const toolNames = mcpb.manifest.tools.map((tool) => tool.name);
gate(/passes/.test(mcpb.validated), `mcpb validate accepts the manifest (${mcpb.validated})`);
gate(toolNames.includes('link_find_or_create') && toolNames.includes('campaign_report'), `the manifest lists the ${toolNames.length} tools the bundled server lists`);
gate(mcpb.manifest.user_config.api_key.sensitive === true && mcpb.manifest.user_config.api_key.required === true && mcpb.manifest.user_config.base_url.required === true, 'the extension asks for the base URL and the key, the key as a sensitive field');
gate(mcpb.manifest.version === pkg.version, `the extension's version is the package's (${mcpb.manifest.version})`);
console.log(`     ${mcpb.file}: ${(mcpb.bytes / 1024).toFixed(0)} KB packed (server/index.js ${(mcpb.entryBytes / 1024).toFixed(0)} KB)`);

if (failures.length > 0) {
  console.error(`\n${failures.length} gate(s) failed.`);
  process.exit(1);
}
console.log('\nAll gates passed.');
