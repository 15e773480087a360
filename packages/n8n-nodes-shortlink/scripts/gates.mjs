// Release gates for the published package, run on what users install (the npm tarball):
//   1. `n8n-node lint` on the sources is clean (no error, no warning);
//   2. n8n's community-package scanner passes on the sources and on the tarball, configured as
//      `@n8n/scan-community-package` configures it (buildScanConfig): the community plugin's recommended rules,
//      no-console and n8n-nodes-base's rule sets, inline eslint-disable ignored;
//   3. every n8n entry of the tarball loads with only n8n-workflow resolvable beside it;
//   4. the tarball's package.json declares no dependencies (peer: n8n-workflow only), names none of this
//      repository's private workspace packages (not even as devDependencies: they are not on npm), and asks for
//      no newer Node.js than the n8n versions it supports need;
//   5. the tarball ships the MIT LICENSE, the same text as the repository's;
//   6. every registry package bundled into the core keeps its licence notice;
//   7. the rules n8n's current lint plugin has and the installed one lacks (scripts/newer-rules.mjs).
// Needs a fresh `npm run build`. `--release` (the release workflow) also fails on RELEASE_BLOCKERS below.
// `--package <folder>`: the gates of another build of this package, e.g. the standalone tree
// (scripts/standalone.mjs) after its `n8n-node build`; the tools come from this repository.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkNewerRules } from './newer-rules.mjs';

const ownPackageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(ownPackageDir, '..', '..');
const packageFlag = process.argv.indexOf('--package');
const packageDir = packageFlag > 0 ? resolve(process.argv[packageFlag + 1]) : ownPackageDir;
const require = createRequire(join(ownPackageDir, 'package.json'));
const release = process.argv.includes('--release');
const failures = [];

// Findings that need a fact this repository does not have. n8n's lint and scanner report them as errors, so
// a release would be rejected: `--release` fails on them; `npm test` shows them as pending and passes.
const RELEASE_BLOCKERS = [
	{
		rule: '@n8n/community-nodes/valid-author',
		message: /non-empty email/,
		todo: 'package.json has no author e-mail: add the maintainers\' real address (RELEASING.md, "Before the first release")',
	},
];
const blockerOf = ({ rule, message }) => RELEASE_BLOCKERS.find((b) => b.rule === rule && b.message.test(message));

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: packageDir, encoding: 'utf8', ...options });
	if (result.error) throw result.error;
	return result;
}

/** problems: strings, or findings { rule, message, where } that may be release blockers. */
function gate(name, problems) {
	const pending = problems.filter((p) => typeof p !== 'string' && blockerOf(p));
	const failing = problems
		.filter((p) => release || !pending.includes(p))
		.map((p) => (typeof p === 'string' ? p : `${p.where} ${p.rule} ${p.message}`));
	const notes = release ? [] : pending.map((p) => `pending, blocks a release: ${blockerOf(p).todo} (${p.rule})`);
	if (failing.length === 0) {
		console.log(`ok   ${name}${notes.map((n) => `\n     ${n}`).join('')}`);
		return;
	}
	console.log(`FAIL ${name}\n  ${failing.join('\n  ')}`);
	failures.push(name);
}

if (!existsSync(join(packageDir, 'dist'))) {
	console.error('dist/ is missing: run `npm run build` first.');
	process.exit(1);
}

// 1. The n8n CLI's own lint (strict mode also checks that eslint.config.mjs is the default one).
// The package's own n8n-node when it has one installed (the standalone tree), else this repository's.
const packageRequire = createRequire(join(packageDir, 'package.json'));
const cliEntry = (() => {
	try {
		return packageRequire.resolve('@n8n/node-cli/eslint');
	} catch {
		return require.resolve('@n8n/node-cli/eslint');
	}
})();
const cliDir = join(dirname(cliEntry), '..', '..');
const lint = run(process.execPath, [join(cliDir, 'bin', 'n8n-node.mjs'), 'lint'], {
	env: { ...process.env, FORCE_COLOR: '0', CI: 'true' },
});
// The CLI colours its output even with FORCE_COLOR=0.
const lintOutput = `${lint.stdout}${lint.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
// Stylish lines: "  14:3  error  The message  rule-id" under the file's path.
const lintFindings = [];
let lintFile = '';
for (const line of lintOutput.split('\n')) {
	const finding = /^\s+(\d+:\d+)\s+(?:error|warning)\s+(.+?)\s{2,}(\S+)\s*$/.exec(line);
	if (finding) lintFindings.push({ where: `${lintFile}:${finding[1]}`, message: finding[2], rule: finding[3] });
	else if (line.startsWith('/')) lintFile = line.trim().slice(packageDir.length + 1);
}
const lintClean = lint.status === 0 && !/\d+ problems?/.test(lintOutput);
gate('n8n-node lint is clean', lintClean || lintFindings.length > 0 ? lintFindings : [lintOutput.trim() || `exit code ${lint.status}`]);

// The scanner's configuration (buildScanConfig of @n8n/scan-community-package), for its two legs.
const { ESLint } = await import(require.resolve('eslint'));
const { n8nCommunityNodesPlugin } = await import(require.resolve('@n8n/eslint-plugin-community-nodes'));
const n8nNodesBase = (await import(require.resolve('eslint-plugin-n8n-nodes-base'))).default;
const { parser } = (await import(require.resolve('typescript-eslint'))).default;
const scanConfig = [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser } },
	{ files: ['**/*.ts'], languageOptions: { parser } },
	{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest' } },
];
async function scan(cwd, patterns) {
	const eslint = new ESLint({ cwd, overrideConfigFile: true, allowInlineConfig: false, overrideConfig: scanConfig });
	const results = await eslint.lintFiles(patterns);
	const findings = results.flatMap((r) =>
		r.messages.map((m) => ({ where: `${r.filePath.slice(cwd.length + 1)}:${m.line}:${m.column}`, rule: m.ruleId ?? '', message: m.message })),
	);
	return { files: results.map((r) => r.filePath), findings };
}

// 2a. The source leg: what the scanner lints in the source checkout that the provenance names.
const source = await scan(packageDir, ['package.json', '{nodes,credentials}/**/*.{js,ts,json}']);
gate(`community-package scanner on the sources (${source.files.length} files)`, source.findings);

// Pack exactly what npm would publish, then unpack it.
const workDir = await mkdtemp(join(tmpdir(), 'n8n-nodes-shortlink-gates-'));
try {
	const pack = run('npm', ['pack', '--json', '--pack-destination', workDir]);
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const [{ filename }] = JSON.parse(pack.stdout);
	const installDir = join(workDir, 'install');
	const unpackedDir = join(installDir, 'node_modules', 'n8n-nodes-shortlink');
	await mkdir(unpackedDir, { recursive: true });
	const untar = run('tar', ['-xzf', join(workDir, filename), '-C', unpackedDir, '--strip-components=1']);
	if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
	const shipped = JSON.parse(await readFile(join(unpackedDir, 'package.json'), 'utf8'));

	// 2b. The tarball leg: compiled .js and the published package.json.
	const tarball = await scan(unpackedDir, ['**/*.js', 'package.json']);
	const linted = tarball.files;
	const messages = tarball.findings;
	gate(
		`community-package scanner on the tarball (${linted.length} files)`,
		linted.some((file) => file.endsWith('.node.js')) ? messages : ['no node file was linted', ...messages],
	);

	// 3. Each entry loads with nothing but n8n-workflow beside the package (the core must be bundled).
	await symlink(dirname(require.resolve('n8n-workflow/package.json')), join(installDir, 'node_modules', 'n8n-workflow'), 'dir');
	const entries = [...shipped.n8n.nodes, ...shipped.n8n.credentials];
	const probe = `
		const path = require('node:path');
		const base = path.join(process.cwd(), 'node_modules', 'n8n-nodes-shortlink');
		const out = [];
		for (const entry of ${JSON.stringify(entries)}) {
			const className = path.basename(entry).split('.')[0];
			const Type = require(path.join(base, entry))[className];
			const instance = new Type();
			out.push(entry + ' -> ' + (instance.description ? instance.description.name : instance.name));
		}
		for (const hidden of ['@shortlink/core', 'axios', 'fastify']) {
			try { require.resolve(hidden, { paths: [base] }); out.push('UNEXPECTED resolvable: ' + hidden); } catch {}
		}
		console.log(JSON.stringify(out));
	`;
	const load = run(process.execPath, ['-e', probe], { cwd: installDir, env: { PATH: process.env.PATH } });
	const loaded = load.status === 0 ? JSON.parse(load.stdout.trim().split('\n').pop()) : [];
	gate(
		`every n8n entry loads in isolation (${entries.length} entries)`,
		load.status !== 0
			? [load.stderr.trim()]
			: loaded.length !== entries.length
				? loaded.filter((line) => line.startsWith('UNEXPECTED'))
				: [],
	);
	for (const line of loaded) console.log(`     ${line}`);

	// 4. Zero runtime dependencies in what is shipped.
	const depProblems = [];
	for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
		if (shipped[field] && Object.keys(shipped[field]).length > 0) depProblems.push(`${field}: ${JSON.stringify(shipped[field])}`);
	}
	if (JSON.stringify(shipped.peerDependencies) !== JSON.stringify({ 'n8n-workflow': '*' })) {
		depProblems.push(`peerDependencies must be exactly {"n8n-workflow":"*"}, got ${JSON.stringify(shipped.peerDependencies)}`);
	}
	// The workspace packages are private (never published): a manifest naming them points at nothing on npm.
	const privateNames = ['@shortlink/core', '@shortlink/sandbox'];
	for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
		const named = Object.keys(shipped[field] ?? {}).filter((name) => privateNames.includes(name) || name.startsWith('@shortlink/'));
		if (named.length > 0) depProblems.push(`${field} names private workspace packages: ${named.join(', ')}`);
	}
	// n8n 1.x runs on Node 20.19+, 2.x on 24: the bundle targets node20, so no more than that is asked.
	if (shipped.engines?.node !== '>=20.19') depProblems.push(`engines.node must be ">=20.19" (n8n 1.x accepts Node 20.19), got ${JSON.stringify(shipped.engines?.node)}`);
	const topLevel = (await readdir(unpackedDir)).sort();
	const unexpected = topLevel.filter((name) => !['dist', 'package.json', 'README.md', 'LICENSE', 'THIRD-PARTY-NOTICES.md'].includes(name));
	if (unexpected.length > 0) depProblems.push(`unexpected files in the tarball: ${unexpected.join(', ')}`);
	gate('the tarball has no dependencies or private packages, asks for Node >=20.19, ships only dist, README, LICENSE and notices', depProblems);

	// 5. The licence n8n's verification asks for (MIT), inside what users install.
	const licenseProblems = [];
	if (shipped.license !== 'MIT') licenseProblems.push(`package.json license must be "MIT", got ${JSON.stringify(shipped.license)}`);
	const shippedLicense = existsSync(join(unpackedDir, 'LICENSE')) ? await readFile(join(unpackedDir, 'LICENSE'), 'utf8') : null;
	if (shippedLicense === null) licenseProblems.push('LICENSE is missing from the tarball (package.json "files", packages/n8n-nodes-shortlink/LICENSE)');
	else {
		if (!shippedLicense.startsWith('MIT License')) licenseProblems.push('the shipped LICENSE is not the MIT licence');
		if (shippedLicense !== (await readFile(join(repositoryRoot, 'LICENSE'), 'utf8'))) {
			licenseProblems.push('the shipped LICENSE differs from the repository root LICENSE: copy it over');
		}
	}
	gate('the tarball ships the MIT LICENSE of the repository', licenseProblems);

	// 6. Every registry package bundled into the core keeps its licence notice in the tarball.
	const noticeProblems = [];
	// The build's dist/shared/core.js, or the standalone tree's dist/vendor/core/core.js (notices at the top).
	const corePath = ['shared/core.js', 'vendor/core/core.js'].map((path) => join(unpackedDir, 'dist', path)).find((path) => existsSync(path));
	const bundledCore = corePath ? await readFile(corePath, 'utf8') : '';
	if (!corePath) noticeProblems.push('the tarball has no bundled core (dist/shared/core.js or dist/vendor/core/core.js)');
	const bundled = new Set([...bundledCore.matchAll(/^\/\/ (?:\.\.\/)*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((match) => match[1]));
	const noticesPath = [join(unpackedDir, 'dist', 'THIRD-PARTY-NOTICES.md'), join(unpackedDir, 'THIRD-PARTY-NOTICES.md')].find((path) => existsSync(path)) ?? '';
	const notices = existsSync(noticesPath) ? await readFile(noticesPath, 'utf8') : '';
	for (const name of bundled) {
		if (!notices.includes(`## ${name} `)) noticeProblems.push(`${name} is bundled into the core but has no licence notice in THIRD-PARTY-NOTICES.md`);
	}
	gate(`the tarball keeps the licence notice of every bundled package (${[...bundled].sort().join(', ') || 'none'})`, noticeProblems);
} finally {
	await rm(workDir, { recursive: true, force: true });
}

// 7. The rules of n8n's current lint plugin that the installed one lacks (until it has them: then n8n-node lint).
const newer = await checkNewerRules(packageDir);
gate(
	`the rules n8n's current lint plugin has and the installed one lacks (${newer.checked.join(', ') || 'none left'})`,
	newer.findings.map(({ rule, where, message }) => `${where} ${message} (${rule})`),
);
for (const rule of newer.givenWay) console.log(`     given way: the installed plugin has ${rule}; n8n-node lint runs it`);

if (failures.length > 0) {
	console.error(`\n${failures.length} gate(s) failed.`);
	process.exit(1);
}
console.log('\nAll gates passed.');
