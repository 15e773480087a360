// `npm run sync-standalone -w n8n-nodes-shortlink`: the first half of a release. On the tag
// n8n-nodes-shortlink@<version> (.github/workflows/release-n8n.yml) it checks the tag and the changelog, writes
// the standalone tree (scripts/standalone.mjs) into a checkout of the package's own repository (package.json
// repository.url), adds the lockfile its `npm ci` needs, commits, tags and pushes both there. That repository's
// publish.yml then publishes with provenance: npm ties the package to the repository that publishes it, and n8n
// verifies only a package of its own repository.
// On GitHub Actions it authenticates with the deploy key in N8N_PACKAGE_DEPLOY_KEY (write access to the package's
// repository only). Elsewhere it needs --remote <git URL> (a local bare repository in the e2e suite and the tests)
// and pushes nothing anywhere else.
// `--rehearsal` (the e2e suite, the tests; refused on GitHub Actions): a version without its dated changelog
// section yet is written too.
// Usage: node scripts/sync-standalone.mjs [--remote <url>] [--rehearsal] [--no-lockfile]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { changelogProblems, stopOn, tagOf, tagProblems, versionProblems } from '../../../scripts/release/checks.mjs';
import { writeStandaloneTree } from './standalone.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const env = process.env;
const args = process.argv.slice(2);
const valueOf = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const onGitHubActions = env.GITHUB_ACTIONS === 'true';
const rehearsal = args.includes('--rehearsal');

const ownRepository = /^git\+https:\/\/github\.com\/(.+?)\.git$/.exec(pkg.repository?.url ?? '')?.[1];
const remote = valueOf('--remote') ?? (onGitHubActions && ownRepository ? `git@github.com:${ownRepository}.git` : undefined);
const problems = [
	...versionProblems(pkg),
	...(rehearsal ? [] : changelogProblems(packageDir, pkg.version)),
	...(rehearsal && onGitHubActions ? ['--rehearsal is for tests, not for a release'] : []),
	...(ownRepository ? [] : [`package.json repository.url ${JSON.stringify(pkg.repository?.url)} names no GitHub repository of the package's own`]),
	...(pkg.repository?.directory === undefined ? [] : ['package.json has a repository.directory: the package is published from a repository of its own']),
	...(onGitHubActions ? tagProblems(pkg, env) : []),
	...(onGitHubActions && !env.N8N_PACKAGE_DEPLOY_KEY ? ['N8N_PACKAGE_DEPLOY_KEY is empty: add a deploy key with write access to the package\'s repository (RELEASING.md)'] : []),
	...(remote ? [] : ['off GitHub Actions this needs --remote <git URL>: a release goes through the tag and release-n8n.yml']),
];
stopOn(problems, `Not writing ${tagOf(pkg)} to the package's repository:`);

const work = mkdtempSync(join(tmpdir(), 'n8n-standalone-sync-'));
const gitEnv = { ...env };
try {
	if (onGitHubActions && env.N8N_PACKAGE_DEPLOY_KEY) {
		const key = join(work, 'deploy-key');
		writeFileSync(key, `${env.N8N_PACKAGE_DEPLOY_KEY.trim()}\n`, { mode: 0o600 });
		gitEnv.GIT_SSH_COMMAND = `ssh -i ${key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new`;
	}
	const checkout = join(work, 'checkout');
	const git = (...gitArgs) => {
		const result = spawnSync('git', gitArgs, { cwd: checkout, env: gitEnv, encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`git ${gitArgs[0]} failed: ${result.stderr.trim()}`);
		return result.stdout.trim();
	};
	const cloned = spawnSync('git', ['clone', '--quiet', remote, checkout], { env: gitEnv, encoding: 'utf8' });
	if (cloned.status !== 0) throw new Error(`git clone ${remote} failed: ${cloned.stderr.trim()}`);
	if (git('tag', '--list', tagOf(pkg)) !== '') throw new Error(`${remote} already has the tag ${tagOf(pkg)}: a version is published once`);

	await writeStandaloneTree(checkout);
	if (!args.includes('--no-lockfile')) {
		// `npm ci` in the package's CI and publish workflow needs it; resolved from the registry, nothing installed.
		const lock = spawnSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: checkout, env: { PATH: env.PATH, HOME: env.HOME }, encoding: 'utf8' });
		if (lock.status !== 0) throw new Error(`npm install --package-lock-only failed: ${lock.stderr.trim().slice(-2000)}`);
	}
	const source = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: packageDir, encoding: 'utf8' }).stdout.trim() || 'an uncommitted tree';
	const monorepo = JSON.parse(readFileSync(join(packageDir, '..', '..', 'package.json'), 'utf8')).repository.url.replace(/^git\+|\.git$/g, '');
	git('add', '--all');
	const identity = ['-c', 'user.name=shortlink-integrations release', '-c', 'user.email=release@users.noreply.github.com'];
	const changed = spawnSync('git', ['diff', '--cached', '--quiet'], { cwd: checkout }).status !== 0;
	if (changed) git(...identity, 'commit', '--quiet', '-m', `${tagOf(pkg)}: written from ${monorepo} at ${source}`);
	git(...identity, 'tag', '-a', tagOf(pkg), '-m', tagOf(pkg));
	git('push', '--quiet', 'origin', 'HEAD:refs/heads/main', `refs/tags/${tagOf(pkg)}`);
	console.log(`Pushed ${tagOf(pkg)} to ${remote}${changed ? '' : ' (the tree was unchanged: the tag is on the previous commit)'}; its publish.yml publishes it.`);
} finally {
	rmSync(work, { recursive: true, force: true });
}
