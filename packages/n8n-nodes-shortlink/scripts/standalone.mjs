// `npm run standalone -w n8n-nodes-shortlink -- <folder>`: writes the package as a repository of its own, the
// form n8n verifies (its lint rule no-monorepo rejects a repository.directory, and npm's provenance ties the
// package to the repository that publishes it). The folder gets:
//   package.json   this package's, with the n8n starter's scripts (n8n-node build / lint), no repository.directory
//                  (the repository named is the package's own), files: dist, LICENSE, THIRD-PARTY-NOTICES.md;
//   nodes/, credentials/, icons/   the node sources as they are here;
//   vendor/core/   the core the nodes use, built here: core.js is the same esbuild bundle as the build's
//                  dist/shared/core.js (the core's portable entry through nodes/core.ts, the QR code's two
//                  registry packages inside, licences in THIRD-PARTY-NOTICES.md), types/ its declarations
//                  (tsc), package.json points at both. JavaScript and declarations because n8n's lint would
//                  read the core's TypeScript as node code (its require-node-api-error wants NodeApiError in
//                  every catch of a .ts file; the core is shared with Zapier and MCP and throws its own
//                  errors, which the nodes turn into NodeApiError). No runtime dependency, as n8n requires;
//   tsconfig.json, eslint.config.mjs (n8n's default, unchanged: strict mode), .npmrc, .gitignore;
//   scripts/       the release (checks, build, lint, the stand-in rules, publish with provenance), its guard
//                  and the scan of the published version;
//   .github/workflows/ci.yml (lint, build, the stand-in rules) and publish.yml (npm publish --provenance on the
//                  tag n8n-nodes-shortlink@<version>, from GitHub Actions);
//   README.md, CHANGELOG.md, LICENSE with their links made absolute (they point into this repository).
// Nothing in it is generated at build time: `npm install && npm run build && npm run lint` works in the folder
// alone. A folder that exists is emptied first, except its .git (a checkout of the package's repository).
// The e2e suite builds, lints and packs this folder and installs that tarball into a real n8n
// (test/e2e/support/standalone-tree.ts).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CORE_BUNDLE } from './bundle-options.mjs';
import { bundledPackages, thirdPartyNotices } from './third-party-notices.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(packageDir, '..', '..');
const coreSource = join(repositoryRoot, 'packages', 'core', 'src');
const rootPackage = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8'));
const monorepoUrl = /^git\+(https:\/\/github\.com\/.+?)\.git$/.exec(rootPackage.repository.url)[1];

const VENDOR_CORE = 'vendor/core';

/** What nodes/core.ts imports from the core: its three faces (the client's for bundles, the operations', the host kit's). */
const CORE_FACES = ['portable', 'faces/operations', 'faces/host'];

/** The core's declarations (tsc), for the nodes' types: one .d.ts per module reached from the faces. */
function writeCoreDeclarations(outDir) {
	const tsc = createRequire(join(repositoryRoot, 'package.json')).resolve('typescript/bin/tsc');
	// Beside the package, so that tsc finds this repository's @types/node.
	const tsconfig = join(packageDir, `.tsconfig.declarations-${process.pid}.json`);
	const config = {
		extends: join(repositoryRoot, 'tsconfig.base.json'),
		compilerOptions: { emitDeclarationOnly: true, declaration: true, sourceMap: false, outDir, rootDir: coreSource, types: ['node'], module: 'commonjs', moduleResolution: 'node10', isolatedModules: false, removeComments: false },
		files: CORE_FACES.map((face) => join(coreSource, `${face}.ts`)),
	};
	writeFileSync(tsconfig, JSON.stringify(config));
	try {
		const result = spawnSync(process.execPath, [tsc, '-p', tsconfig], { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`tsc could not write the core's declarations:\n${result.stdout}${result.stderr}`);
	} finally {
		rmSync(tsconfig, { force: true });
	}
}

/** Relative Markdown links (into this repository) become absolute links to it on GitHub. */
function absoluteLinks(markdown, fromDir) {
	return markdown.replace(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g, (_match, target) => {
		const [path, anchor] = target.split('#');
		const inRepository = relative(repositoryRoot, resolve(fromDir, path)).replace(/\\/g, '/');
		const kind = existsSync(join(repositoryRoot, inRepository)) && !/\.\w+$/.test(inRepository) ? 'tree' : 'blob';
		return `](${monorepoUrl}/${kind}/main/${inRepository}${anchor ? `#${anchor}` : ''})`;
	});
}

async function emptyFolder(dir) {
	await mkdir(dir, { recursive: true });
	for (const name of await readdir(dir)) if (name !== '.git') await rm(join(dir, name), { recursive: true, force: true });
}

export async function writeStandaloneTree(outDir) {
	const out = resolve(outDir);
	if (out === packageDir || out.startsWith(`${packageDir}/`) || out === repositoryRoot) throw new Error(`${out} is inside the package: choose a folder of its own`);
	await emptyFolder(out);
	const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
	const write = async (path, text) => {
		await mkdir(dirname(join(out, path)), { recursive: true });
		await writeFile(join(out, path), text);
	};

	// The node sources, unchanged except the one door to the core (nodes/core.ts).
	for (const folder of ['nodes', 'credentials', 'icons']) await cp(join(packageDir, folder), join(out, folder), { recursive: true });
	const door = await readFile(join(packageDir, 'nodes', 'core.ts'), 'utf8');
	// Every face is one module there: the bundle below is built from this door, so core.js holds all three.
	let vendoredDoor = door;
	for (const face of CORE_FACES) {
		if (!door.includes(`'../../core/src/${face}'`)) throw new Error(`nodes/core.ts no longer imports '../../core/src/${face}': update scripts/standalone.mjs`);
		vendoredDoor = vendoredDoor.replaceAll(`'../../core/src/${face}'`, `'../${VENDOR_CORE}'`);
	}
	if (vendoredDoor.includes('/core/src/')) throw new Error('nodes/core.ts imports a part of the core other than its faces: update scripts/standalone.mjs');
	await write('nodes/core.ts', vendoredDoor);

	// The core: the build's bundle of it (what dist/shared/core.js is), its declarations, a package.json for both.
	const coreBuild = await build({ ...CORE_BUNDLE, entryPoints: [join(packageDir, 'nodes', 'core.ts')], outfile: join(out, VENDOR_CORE, 'core.js'), metafile: true });
	const header = `// The core of ${monorepoUrl} (packages/core), bundled by its scripts/standalone.mjs; the bundled packages' licences: THIRD-PARTY-NOTICES.md.\n`;
	await writeFile(join(out, VENDOR_CORE, 'core.js'), header + (await readFile(join(out, VENDOR_CORE, 'core.js'), 'utf8')));
	writeCoreDeclarations(join(out, VENDOR_CORE, 'types'));
	await write(`${VENDOR_CORE}/types/index.d.ts`, CORE_FACES.map((face) => `export * from './${face}';\n`).join(''));
	await write(`${VENDOR_CORE}/package.json`, `${JSON.stringify({ private: true, description: 'The bundled core of n8n-nodes-shortlink (not a package of its own).', main: 'core.js', types: 'types/index.d.ts' }, null, '\t')}\n`);
	const names = bundledPackages(coreBuild.metafile);
	const intro = `This package bundles the following packages into ${VENDOR_CORE}/core.js (dist/${VENDOR_CORE}/core.js once built). Their licences:`;
	await write('THIRD-PARTY-NOTICES.md', await thirdPartyNotices(names, join(repositoryRoot, 'node_modules'), intro));

	// package.json: the n8n starter's scripts; the same name, version, metadata and n8n block.
	const { scripts: _ours, devDependencies, files: _files, ...kept } = pkg;
	if (kept.repository?.directory !== undefined) throw new Error('package.json names a repository.directory: the standalone package is a repository of its own');
	const standalone = {
		...kept,
		scripts: {
			build: 'n8n-node build',
			lint: 'n8n-node lint',
			'lint:fix': 'n8n-node lint --fix',
			'check:rules': 'node scripts/newer-rules.mjs',
			release: 'node scripts/release.mjs',
			prepublishOnly: 'node scripts/publish-guard.mjs',
		},
		files: ['dist', 'LICENSE', 'THIRD-PARTY-NOTICES.md'],
		devDependencies: {
			'@n8n/node-cli': devDependencies['@n8n/node-cli'],
			eslint: devDependencies.eslint,
			'n8n-workflow': devDependencies['n8n-workflow'],
			typescript: rootPackage.devDependencies.typescript,
		},
	};
	await write('package.json', `${JSON.stringify(standalone, null, '\t')}\n`);

	// n8n's starter tsconfig, with what the core needs: a newer language level, and the vendored module compiled in.
	const tsconfig = {
		compilerOptions: {
			strict: true,
			module: 'commonjs',
			moduleResolution: 'node',
			target: 'es2022',
			lib: ['es2023'],
			useUnknownInCatchVariables: false,
			forceConsistentCasingInFileNames: true,
			noImplicitAny: true,
			noImplicitReturns: true,
			noUnusedLocals: true,
			strictNullChecks: true,
			preserveConstEnums: true,
			esModuleInterop: true,
			resolveJsonModule: true,
			allowJs: true,
			skipLibCheck: true,
			outDir: './dist/',
		},
		include: ['credentials/**/*', 'nodes/**/*', 'nodes/**/*.json', 'vendor/**/*', 'vendor/**/*.json', 'package.json'],
	};
	await write('tsconfig.json', `${JSON.stringify(tsconfig, null, '\t')}\n`);
	await cp(join(packageDir, 'eslint.config.mjs'), join(out, 'eslint.config.mjs'));
	await write('.npmrc', (await readFile(join(repositoryRoot, '.npmrc'), 'utf8')));
	await write('.gitignore', 'node_modules/\ndist/\n*.tgz\n*.tsbuildinfo\n');

	// The release: the same scripts as here, the shared checks beside them.
	await write('scripts/release-checks.mjs', await readFile(join(repositoryRoot, 'scripts', 'release', 'checks.mjs'), 'utf8'));
	const release = await readFile(join(packageDir, 'scripts', 'release.mjs'), 'utf8');
	if (!release.includes("'../../../scripts/release/checks.mjs'")) throw new Error('scripts/release.mjs no longer imports the shared checks: update scripts/standalone.mjs');
	await write('scripts/release.mjs', release.replace("'../../../scripts/release/checks.mjs'", "'./release-checks.mjs'"));
	for (const script of ['publish-guard.mjs', 'scan-published.mjs', 'newer-rules.mjs']) {
		await cp(join(packageDir, 'scripts', script), join(out, 'scripts', script));
	}
	await write('.github/workflows/ci.yml', CI_WORKFLOW);
	await write('.github/workflows/publish.yml', PUBLISH_WORKFLOW);

	const note =
		`> This repository is written from [${monorepoUrl.replace('https://github.com/', '')}](${monorepoUrl}) ` +
		'(`npm run standalone -w n8n-nodes-shortlink`): change the code there; its tests and the end-to-end suite run there.\n\n';
	const readme = absoluteLinks(await readFile(join(packageDir, 'README.md'), 'utf8'), packageDir);
	await write('README.md', readme.replace(/^(# .*\n)/, `$1\n${note}`));
	await write('CHANGELOG.md', absoluteLinks(await readFile(join(packageDir, 'CHANGELOG.md'), 'utf8'), packageDir));
	await cp(join(packageDir, 'LICENSE'), join(out, 'LICENSE'));
	return { dir: out, vendored: names };
}

/** The first steps of every job of the tree's workflows: the checkout and Node 24 (npm >= 11.5.1). */
const SETUP_STEPS = `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 24
`;

const CI_WORKFLOW = `# The package's own checks on every push: n8n's lint, the build and the rules n8n's current lint plugin has
# and the served one lacks (scripts/newer-rules.mjs). The tests and the end-to-end suite in a real n8n run in
# the repository this one is written from.
name: CI

on:
  push:
  pull_request:

permissions:
  contents: read

jobs:
  check:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
${SETUP_STEPS}      - run: npm ci
      - run: npm run lint
      - run: npm run build
      - run: npm run check:rules
`;

const PUBLISH_WORKFLOW = `# Publishes n8n-nodes-shortlink to npm when the tag n8n-nodes-shortlink@<version> is pushed, with an npm
# provenance statement (n8n accepts community packages only when published from GitHub Actions with one, since
# 1 May 2026), then scans the published version with n8n's community-package scanner.
# Trusted publishing (OIDC): the package's Trusted Publisher on npmjs.com names this repository and this file,
# publish.yml. npm allows one only for a package that exists: the very first version is published with the
# secret NPM_TOKEN (a granular token), from this job and with provenance too; delete the secret afterwards.
name: Publish

on:
  push:
    tags:
      - 'n8n-nodes-shortlink@*'

permissions:
  contents: read

concurrency:
  group: publish
  cancel-in-progress: false

jobs:
  publish:
    name: Check, build, lint and publish with provenance
    runs-on: ubuntu-latest
    timeout-minutes: 30
    permissions:
      contents: read
      id-token: write
    outputs:
      version: \${{ steps.release.outputs.version }}
    steps:
      - uses: actions/checkout@v4
      # Node 24 comes with npm 11.6 or later: trusted publishing needs npm >= 11.5.1 (the release checks it).
      - uses: actions/setup-node@v4
        with:
          node-version: 24
      - name: Install (lockfile, no dependency scripts)
        run: npm ci
      - name: Release
        id: release
        run: npm run release
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}

  scan:
    name: Scan the published version
    needs: publish
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
${SETUP_STEPS}      - name: npx @n8n/scan-community-package n8n-nodes-shortlink@<version>
        run: node scripts/scan-published.mjs "$VERSION"
        env:
          VERSION: \${{ needs.publish.outputs.version }}
`;

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const [outDir] = process.argv.slice(2);
	if (!outDir) {
		console.error('Usage: npm run standalone -w n8n-nodes-shortlink -- <folder>');
		process.exit(2);
	}
	const result = await writeStandaloneTree(outDir);
	console.log(`Wrote the standalone package to ${result.dir} (the core bundled with ${result.vendored.join(', ')}).`);
	console.log('There: npm install && npm run build && npm run lint && npm run check:rules && npm pack');
}
