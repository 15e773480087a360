// Build: clean dist, bundle every node and credential entry with esbuild (the core and the shared
// credential definition are inlined, n8n-workflow stays external), then copy icons and codex files.
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(packageDir, 'dist');
const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));

// The n8n block is the single list of entries: dist/x/Y.node.js is built from x/Y.node.ts.
const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((file) =>
	join(packageDir, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
);

await rm(dist, { recursive: true, force: true });

await build({
	entryPoints: entries,
	outbase: packageDir,
	outdir: dist,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	external: ['n8n-workflow'],
	tsconfig: join(packageDir, 'tsconfig.json'),
	keepNames: true,
	legalComments: 'none',
	logLevel: 'warning',
});

await cp(join(packageDir, 'icons'), join(dist, 'icons'), { recursive: true });
for (const nodeFile of pkg.n8n.nodes) {
	const codex = nodeFile.replace(/^dist\//, '').replace(/\.js$/, '.json');
	await mkdir(dirname(join(dist, codex)), { recursive: true });
	await cp(join(packageDir, codex), join(dist, codex));
}

console.log(`Built ${entries.length} entries into ${relative(process.cwd(), dist) || 'dist'}`);
