// `npm run release -w n8n-nodes-shortlink`: publishes this package the only way n8n accepts it (since 1 May
// 2026): from GitHub Actions, with an npm provenance statement. See RELEASING.md.
//
// On GitHub Actions (.github/workflows/release-n8n.yml, on the tag n8n-nodes-shortlink@<version>): checks the
// tag, the repository and the changelog, builds, runs the packaging gates in release mode, and publishes with
// provenance (OIDC trusted publishing, `id-token: write`). Anywhere else it runs the checks that need no CI and
// says how to release; it never publishes from a laptop (prepublishOnly refuses that too).
// `--preflight`: the checks only, also on GitHub Actions.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	changelogProblems,
	isPrerelease,
	npmVersionProblems,
	releaseOrExplain,
	repositoryProblems,
	run,
	setOutput,
	tagOf,
	tagProblems,
	versionProblems,
} from '../../../scripts/release/checks.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const env = process.env;
const onGitHubActions = env.GITHUB_ACTIONS === 'true';
const preflight = process.argv.includes('--preflight');

const problems = [
	...versionProblems(pkg),
	...changelogProblems(packageDir, pkg.version),
	...(existsSync(join(packageDir, 'LICENSE')) ? [] : ['LICENSE is missing in packages/n8n-nodes-shortlink (a copy of the root LICENSE)']),
	// n8n's lint and scanner require one, and only the maintainers have a real one (RELEASING.md).
	...(pkg.author?.email ? [] : ['package.json author has no e-mail: add the maintainers\' real address (n8n\'s scanner requires one)']),
	...(onGitHubActions ? [...tagProblems(pkg, env), ...repositoryProblems(pkg, env), ...npmVersionProblems(env)] : []),
];

// Here (the monorepo) a tag starts release-n8n.yml, which writes the package's own repository and pushes the tag
// there; in that repository (written by scripts/standalone.mjs, without gates.mjs) publish.yml publishes.
const standalone = !existsSync(join(packageDir, 'scripts', 'gates.mjs'));
releaseOrExplain({
	pkg,
	problems,
	onGitHubActions,
	preflight,
	workflow: standalone ? 'publish.yml' : 'release-n8n.yml',
	note: standalone ? undefined : `release-n8n.yml writes the package's own repository (${pkg.repository.url.replace(/^git\+|\.git$/g, '')}) and pushes the tag there; its publish.yml publishes with provenance.`,
});

const inPackage = { cwd: packageDir, env };
run('npm', ['run', 'build'], inPackage);
if (existsSync(join(packageDir, 'scripts', 'gates.mjs'))) {
	run(process.execPath, ['scripts/gates.mjs', '--release'], inPackage);
} else {
	// The package's own repository (scripts/standalone.mjs of the monorepo, where the full gates run in CI on
	// this very tree): n8n's lint and the rules its current plugin has and the installed one lacks.
	run('npm', ['run', 'lint'], inPackage);
	run(process.execPath, ['scripts/newer-rules.mjs'], inPackage);
}
// Scripts are off in this repository's .npmrc (and in npm_config_ignore_scripts, which npm hands to every
// script): turn them on for this one command so that prepublishOnly (scripts/publish-guard.mjs) checks the
// publish. RELEASE_MODE tells the guard that this script started it; --provenance signs the statement.
const publishEnv = { ...env, RELEASE_MODE: 'true' };
if (env.NPM_TOKEN) {
	// First version only: npm lets a package have a trusted publisher only once it exists, so the first publish
	// authenticates with a granular token (still from this workflow, still with provenance). npm expands the
	// variable itself: the token is in no file and on no command line. Delete the secret afterwards.
	const userconfig = join(mkdtempSync(join(tmpdir(), 'npm-bootstrap-')), '.npmrc');
	writeFileSync(userconfig, '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n');
	publishEnv.npm_config_userconfig = userconfig;
	console.log('NPM_TOKEN is set: publishing with the bootstrap token instead of trusted publishing (RELEASING.md).');
}
run(
	'npm',
	[
		'publish',
		'--provenance',
		'--access', 'public',
		'--ignore-scripts=false',
		...(isPrerelease(pkg.version) ? ['--tag', 'next'] : []),
	],
	{ cwd: packageDir, env: publishEnv },
);
setOutput('version', pkg.version, env);
console.log(`\nPublished ${tagOf(pkg)} with provenance.`);
