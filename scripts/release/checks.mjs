// Checks shared by the release scripts of the published packages (packages/*/scripts/release.mjs).
// Each returns a list of problems, empty when the release may go on. See RELEASING.md.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The tag that releases a package version: `<package name>@<version>`, e.g. n8n-nodes-shortlink@0.1.0. */
export const tagOf = (pkg) => `${pkg.name}@${pkg.version}`;

export const isPrerelease = (version) => version.includes('-');

/** The package's CHANGELOG.md has a dated section for this version (Keep a Changelog: `## [1.2.3] - 2026-01-31`). */
export function changelogProblems(packageDir, version) {
  const file = join(packageDir, 'CHANGELOG.md');
  if (!existsSync(file)) return [`${file} is missing`];
  const escaped = version.replace(/[.+-]/g, (c) => `\\${c}`);
  const heading = new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`, 'm');
  return heading.test(readFileSync(file, 'utf8'))
    ? []
    : [`CHANGELOG.md has no section "## [${version}] - YYYY-MM-DD": move the Unreleased entries under it`];
}

export function versionProblems(pkg) {
  return SEMVER.test(pkg.version ?? '') ? [] : [`package.json version ${JSON.stringify(pkg.version)} is not x.y.z or x.y.z-pre`];
}

/** On GitHub Actions: the pushed tag must be this package's tag for exactly this version. */
export function tagProblems(pkg, env) {
  const ref = env.GITHUB_REF ?? '';
  const expected = tagOf(pkg);
  if (ref === `refs/tags/${expected}`) return [];
  return [`the workflow runs for ${ref || 'no ref'}, but package.json ${pkg.version} is released by the tag ${expected}`];
}

/**
 * npm's provenance ties the package to the repository the workflow runs in and rejects the publish when
 * package.json's repository.url names another one; n8n's verification compares them too.
 */
export function repositoryProblems(pkg, env) {
  const running = `https://github.com/${env.GITHUB_REPOSITORY ?? '?'}`;
  const declared = /^git\+(https:\/\/github\.com\/.+?)\.git$/.exec(pkg.repository?.url ?? '')?.[1];
  if (declared && declared.toLowerCase() === running.toLowerCase()) return [];
  return [
    `package.json repository.url names ${declared ?? pkg.repository?.url ?? 'nothing'}, but the workflow runs in ${running}: ` +
      'set the root package.json "repository" and the packages\' copies to the real address (RELEASING.md)',
  ];
}

/** npm trusted publishing (OIDC) needs npm >= 11.5.1; older npm would publish without it and fail. */
export function npmVersionProblems(env) {
  const version = spawnSync('npm', ['--version'], { encoding: 'utf8', env }).stdout?.trim() ?? '';
  const [major, minor, patch] = version.split('.').map(Number);
  const ok = major > 11 || (major === 11 && (minor > 5 || (minor === 5 && patch >= 1)));
  return ok ? [] : [`npm ${version || '(not found)'} cannot publish through trusted publishing: it needs npm >= 11.5.1`];
}

/** Runs a command with inherited output; throws when it fails, so that nothing after it runs. */
export function run(command, args, options = {}) {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args[0] ?? ''} failed (exit ${result.status})`);
}

/** Prints the problems and exits 1, or returns when there are none. */
export function stopOn(problems, heading) {
  if (problems.length === 0) return;
  console.error(`${heading}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

/**
 * The common start of a release script: off GitHub Actions it says how a release happens (`workflow` does
 * it, `note` adds a line), reports the problems and exits; on GitHub Actions it stops on problems, and
 * `--preflight` ends there. Returns only when the release itself should run.
 */
export function releaseOrExplain({ pkg, problems, onGitHubActions, preflight, workflow, note }) {
  if (!onGitHubActions) {
    console.log(
      `${pkg.name}@${pkg.version} is released by .github/workflows/${workflow}, not from this machine.\n` +
        'To release: move the Unreleased entries of CHANGELOG.md under the new version, set "version" in package.json,\n' +
        `commit, then push the tag:  git tag ${tagOf(pkg)} && git push origin ${tagOf(pkg)}` +
        (note ? `\n${note}` : ''),
    );
    stopOn(problems, '\nFix these before tagging:');
    console.log('\nThe checks that need no CI pass.');
    process.exit(0);
  }
  stopOn(problems, `Not releasing ${tagOf(pkg)}:`);
  if (preflight) {
    console.log(`Preflight for ${tagOf(pkg)} passed.`);
    process.exit(0);
  }
}

/** Hands a step output to the workflow (the scan step reads the published version). */
export function setOutput(name, value, env) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
}
