/**
 * Releasing the Zapier app: the release script pushes only from the tagged commit on GitHub Actions, with the
 * deploy key and the app link, and the changelog section is the one `zapier-platform promote` will read.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const appDir = join(__dirname, '..', '..', 'packages', 'zapier');
const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
const tag = `shortlink-zapier@${pkg.version}`;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(GITHUB_|ACTIONS_|RUNNER_|npm_|ZAPIER_|CI$)/i.test(key)) clean[key] = value;
  }
  return { ...clean, ...extra };
}

const release = (args: string[], environment: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, ['scripts/release.mjs', ...args], { cwd: appDir, env: environment, encoding: 'utf8', timeout: 30_000 });

describe('npm run release -w shortlink-zapier', () => {
  it('off GitHub Actions it checks, names the tag to push and pushes nothing', () => {
    const result = release([], env());
    expect(result.stdout).toContain('is released by .github/workflows/release-zapier.yml, not from this machine');
    expect(result.stdout).toContain(`git tag ${tag} && git push origin ${tag}`);
    expect(result.stdout).not.toContain('$ ');
    expect(result.status).toBe(0);
  });

  it('on GitHub Actions it needs the tag of this version, the deploy key and the app link', () => {
    const result = release(['--preflight'], env({ GITHUB_ACTIONS: 'true', GITHUB_REF: 'refs/tags/shortlink-zapier@9.9.9' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`is released by the tag ${tag}`);
    expect(result.stderr).toContain('ZAPIER_DEPLOY_KEY is empty');
    if (!existsSync(join(appDir, '.zapierapprc'))) expect(result.stderr).toContain('zapier-platform register');
  });

  it('accepts the deploy key from the environment, where the Zapier CLI reads it (ZAPIER_DEPLOY_KEY)', () => {
    const result = release(['--preflight'], env({ GITHUB_ACTIONS: 'true', GITHUB_REF: `refs/tags/${tag}`, ZAPIER_DEPLOY_KEY: 'k' }));
    expect(result.stderr).not.toContain('ZAPIER_DEPLOY_KEY');
    expect(result.stderr).not.toContain('is released by the tag');
  });
});

describe('CHANGELOG.md', () => {
  it('has the section of the current version that zapier-platform promote shows', async () => {
    // The CLI's own reader (promote uses it); it reads CHANGELOG.md of the given app folder. No typings.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { getVersionChangelog } = require('zapier-platform-cli/src/utils/changelog');
    const { changelog } = await getVersionChangelog(pkg.version, appDir);
    expect(changelog).toContain('### Added');
    expect(changelog).toContain('trigger/new_link');
  });
});
