// The esbuild settings of the core's bundle (dist/shared/core.js, and the standalone tree's vendor/core/core.js)
// and of every node entry: CommonJS for Node 20, n8n-workflow left to n8n.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export const CORE_BUNDLE = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	tsconfig: join(packageDir, 'tsconfig.json'),
	// No keepNames: esbuild emits classes as `var Name = class …`, which JavaScript names after the variable
	// (the core's errors name themselves from their class), and leaves out a __name() call per function (about
	// 5 KB of the tarball). Only a symbol esbuild renames, when two modules declare the same name, would lose
	// its name: assertNoRenamedClass in build.mjs fails the build for a class.
	legalComments: 'none',
	logLevel: 'warning',
	// fflate's Node build probes worker_threads through require('module'), which n8n's scanner refuses; its
	// browser build is the same code without the probe (the sync deflate the QR code uses needs no worker).
	alias: { fflate: 'fflate/browser' },
};

