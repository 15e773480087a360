// Release gates for the published package, run on what users install (the npm tarball):
//   1. `n8n-node lint` on the sources is clean (no error, no warning);
//   2. n8n's community-package scanner rules (recommended, inline disables ignored) pass on the tarball;
//   3. every n8n entry of the tarball loads with only n8n-workflow resolvable beside it;
//   4. the tarball's package.json declares no dependencies (peer: n8n-workflow only).
// Needs a fresh `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(packageDir, 'package.json'));
const failures = [];

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: packageDir, encoding: 'utf8', ...options });
	if (result.error) throw result.error;
	return result;
}

function gate(name, problems) {
	if (problems.length === 0) {
		console.log(`ok   ${name}`);
		return;
	}
	console.log(`FAIL ${name}\n  ${problems.join('\n  ')}`);
	failures.push(name);
}

if (!existsSync(join(packageDir, 'dist'))) {
	console.error('dist/ is missing: run `npm run build` first.');
	process.exit(1);
}

// 1. The n8n CLI's own lint (strict mode also checks that eslint.config.mjs is the default one).
const cliDir = join(dirname(require.resolve('@n8n/node-cli/eslint')), '..', '..');
const lint = run(process.execPath, [join(cliDir, 'bin', 'n8n-node.mjs'), 'lint'], {
	env: { ...process.env, FORCE_COLOR: '0', CI: 'true' },
});
const lintOutput = `${lint.stdout}${lint.stderr}`;
gate(
	'n8n-node lint is clean',
	lint.status === 0 && !/\d+ problems?/.test(lintOutput) ? [] : [lintOutput.trim() || `exit code ${lint.status}`],
);

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

	// 2. The community-package scanner's rules over the unpacked files, inline eslint-disable ignored.
	const { ESLint } = await import(require.resolve('eslint'));
	const { n8nCommunityNodesPlugin } = await import(require.resolve('@n8n/eslint-plugin-community-nodes'));
	const tseslint = (await import(require.resolve('typescript-eslint'))).default;
	const { plugins, rules } = n8nCommunityNodesPlugin.configs.recommended;
	const eslint = new ESLint({
		cwd: unpackedDir,
		overrideConfigFile: true,
		allowInlineConfig: false,
		overrideConfig: [
			{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest' }, plugins, rules },
			{
				files: ['package.json'],
				languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
				plugins,
				rules,
			},
		],
	});
	const results = await eslint.lintFiles(['**/*.js', 'package.json']);
	const linted = results.map((r) => r.filePath);
	const messages = results.flatMap((r) =>
		r.messages.map((m) => `${r.filePath.slice(unpackedDir.length + 1)}:${m.line}:${m.column} ${m.ruleId ?? ''} ${m.message}`),
	);
	gate(
		`community-node scanner rules are clean on the tarball (${linted.length} files)`,
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
	const topLevel = (await readdir(unpackedDir)).sort();
	const unexpected = topLevel.filter((name) => !['dist', 'package.json', 'README.md', 'LICENSE', 'LICENSE.md'].includes(name));
	if (unexpected.length > 0) depProblems.push(`unexpected files in the tarball: ${unexpected.join(', ')}`);
	gate('the tarball has no dependencies and ships only dist', depProblems);
} finally {
	await rm(workDir, { recursive: true, force: true });
}

if (failures.length > 0) {
	console.error(`\n${failures.length} gate(s) failed.`);
	process.exit(1);
}
console.log('\nAll gates passed.');
