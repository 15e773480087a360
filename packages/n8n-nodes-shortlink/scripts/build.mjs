// Build: clean dist, bundle the core once into dist/shared/core.js, then every node and credential entry
// with esbuild (each reaches the core through nodes/core.ts, required from dist/shared; n8n-workflow
// external), then copy icons and codex files. One copy of the core instead of one per entry keeps the
// tarball small; what is shipped still has no dependency. nodes/core.ts exports only the core's names the nodes
// use, so esbuild's tree shaking leaves out the code this package never reaches (other hosts' needs).
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CORE_BUNDLE } from './bundle-options.mjs';
import { bundledPackages, thirdPartyNotices } from './third-party-notices.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(packageDir, 'dist');
const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));

// The n8n block is the single list of entries: dist/x/Y.node.js is built from x/Y.node.ts.
const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((file) =>
	join(packageDir, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
);

await rm(dist, { recursive: true, force: true });

const common = CORE_BUNDLE;

const sharedCore = join(dist, 'shared', 'core.js');
const coreDoor = join(packageDir, 'nodes', 'core');
const coreBuild = await build({ ...common, entryPoints: [join(coreDoor + '.ts')], outfile: sharedCore, metafile: true });
await writeThirdPartyNotices(coreBuild.metafile);

// The entries below reach the core by a require esbuild does not look into: a name nodes/core.ts does not
// export would only fail when a workflow runs. Bundled once in memory with the door inside, esbuild's own
// import check ("No matching export") fails the build instead.
await build({ ...common, entryPoints: entries, outdir: dist, write: false, external: ['n8n-workflow'] });

// Each entry on its own, so that its require of the core is relative to where that entry lands.
for (const entry of entries) {
	const outfile = join(dist, relative(packageDir, entry).replace(/\.ts$/, '.js'));
	const toCore = relative(dirname(outfile), sharedCore).replace(/\\/g, '/');
	await build({
		...common,
		entryPoints: [entry],
		outfile,
		external: ['n8n-workflow'],
		plugins: [
			{
				name: 'shared-core',
				setup(esbuild) {
					// The nodes and the credential reach the core through nodes/core.ts (relative imports): it
					// becomes a require of the one shared copy.
					const shared = { path: toCore.startsWith('.') ? toCore : `./${toCore}`, external: true };
					esbuild.onResolve({ filter: /(^|\/)core$/ }, (args) => (join(args.resolveDir, args.path) === coreDoor ? shared : undefined));
				},
			},
		],
	});
}

for (const file of [sharedCore, ...entries.map((entry) => join(dist, relative(packageDir, entry).replace(/\.ts$/, '.js')))]) {
	await assertNoRenamedClass(file);
}

await cp(join(packageDir, 'icons'), join(dist, 'icons'), { recursive: true });
for (const nodeFile of pkg.n8n.nodes) {
	const codex = nodeFile.replace(/^dist\//, '').replace(/\.js$/, '.json');
	await mkdir(dirname(join(dist, codex)), { recursive: true });
	await cp(join(packageDir, codex), join(dist, codex));
}

console.log(`Built ${entries.length} entries into ${relative(process.cwd(), dist) || 'dist'}`);

/**
 * The licences of the registry packages bundled into dist (the QR encoder and its deflate), shipped as
 * dist/THIRD-PARTY-NOTICES.md. The list comes from what esbuild actually put in the bundle, so a new bundled
 * package cannot be forgotten (scripts/gates.mjs checks).
 */
async function writeThirdPartyNotices(metafile) {
	const intro = 'This package bundles the following packages into dist/shared/core.js. Their licences:';
	const text = await thirdPartyNotices(bundledPackages(metafile), join(packageDir, '..', '..', 'node_modules'), intro);
	await mkdir(dist, { recursive: true });
	await writeFile(join(dist, 'THIRD-PARTY-NOTICES.md'), text);
}

/**
 * esbuild renames a top-level symbol that two bundled modules both declare (`InputError` and `InputError2`).
 * A renamed class would carry the new name at run time (an error's name comes from its class), so the build
 * stops and asks for a distinct name in the sources instead.
 */
async function assertNoRenamedClass(file) {
	const code = await readFile(file, 'utf8');
	const declared = new Set([...code.matchAll(/^(?:var|let|const|function|class) ([\w$]+)/gm)].map((match) => match[1]));
	for (const [, name, base] of code.matchAll(/^var (([\w$]*\D)\d+) = class\b/gm)) {
		if (declared.has(base)) {
			throw new Error(`${relative(packageDir, file)}: esbuild renamed the class ${base} to ${name} (two modules declare ${base}); give one of them another name`);
		}
	}
}
