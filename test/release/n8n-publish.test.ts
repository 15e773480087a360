/**
 * Publishing: only the release workflow can publish (provenance from GitHub Actions, as n8n requires), the
 * release script checks tag, repository and changelog first, and a failed community-package scan fails.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const packageDir = join(__dirname, '..', '..', 'packages', 'n8n-nodes-shortlink');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const tag = `n8n-nodes-shortlink@${pkg.version}`;

/**
 * The environment of a developer's shell: no GitHub Actions variables (CI may run these tests inside a GitHub
 * job), no npm settings inherited from the `npm test` that started jest.
 */
function laptopEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(GITHUB_|ACTIONS_|RUNNER_|npm_|RELEASE_MODE$|CI$)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

const githubEnv = (extra: Record<string, string> = {}) =>
  laptopEnv({
    GITHUB_ACTIONS: 'true',
    GITHUB_REF: `refs/tags/${tag}`,
    GITHUB_REPOSITORY: new URL(pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')).pathname.slice(1),
    ...extra,
  });

const output = (result: SpawnSyncReturns<string>) => `${result.stdout}${result.stderr}`;
const node = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, args, { cwd: packageDir, env, encoding: 'utf8', timeout: 60_000 });
const npm = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync('npm', args, { cwd: packageDir, env, encoding: 'utf8', timeout: 60_000 });

describe('a publish from a laptop is refused', () => {
  it('npm publish --dry-run: prepublishOnly refuses with the reason and the way to release', () => {
    // Scripts on, as in the release workflow (this repository's .npmrc turns them off; see the next test).
    const result = npm(['publish', '--dry-run', '--ignore-scripts=false'], laptopEnv());
    expect(result.status).not.toBe(0);
    expect(output(result)).toContain('Refusing to publish n8n-nodes-shortlink: this is not a GitHub Actions job.');
    expect(output(result)).toContain('published from GitHub Actions with npm provenance');
    expect(output(result)).toContain('n8n-nodes-shortlink@<version>: see RELEASING.md');
    expect(output(result)).not.toContain('+ n8n-nodes-shortlink@'); // npm's line for a (dry-run) publish
  });

  it('with scripts ignored, npm itself refuses: publishConfig asks for provenance, which a laptop cannot sign', async () => {
    // A registry that cannot be reached and a token that is not one: nothing can leave this machine.
    const port = await closedPort();
    const registry = `http://127.0.0.1:${port}/`;
    const result = npm(
      ['publish', '--ignore-scripts=true', `--registry=${registry}`, `--//127.0.0.1:${port}/:_authToken=not-a-token`, '--fetch-retries=0'],
      laptopEnv(),
    );
    expect(result.status).not.toBe(0);
    expect(output(result)).toMatch(/EUSAGE[\s\S]*Automatic provenance generation not supported for provider: null/);
    expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true, registry: 'https://registry.npmjs.org/' });
  });

  it.each([
    ['outside GitHub Actions', laptopEnv({ RELEASE_MODE: 'true', npm_config_provenance: 'true' }), 'this is not a GitHub Actions job'],
    [
      'in a job without id-token: write',
      githubEnv({ RELEASE_MODE: 'true', npm_config_provenance: 'true' }),
      'give it `permissions: id-token: write`',
    ],
    [
      'a publish not started by the release script',
      githubEnv({ ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't', npm_config_provenance: 'true' }),
      'was not started by `npm run release`',
    ],
    [
      'without provenance',
      githubEnv({ ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't', RELEASE_MODE: 'true' }),
      'provenance is off',
    ],
  ])('the guard refuses %s', (_case, env, reason) => {
    const result = node(['scripts/publish-guard.mjs'], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(reason);
  });

  it('the guard lets the release workflow publish', () => {
    const env = githubEnv({
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't',
      RELEASE_MODE: 'true',
      npm_config_provenance: 'true',
    });
    const result = node(['scripts/publish-guard.mjs'], env);
    expect(output(result)).toBe('');
    expect(result.status).toBe(0);
  });

  it('the package scripts wire the guard and the release as the n8n starter does', () => {
    expect(pkg.scripts.prepublishOnly).toBe('node scripts/publish-guard.mjs');
    expect(pkg.scripts.release).toBe('node scripts/release.mjs');
  });
});

describe('npm run release', () => {
  it('off GitHub Actions it only checks and names the tag to push', () => {
    const result = node(['scripts/release.mjs'], laptopEnv());
    expect(output(result)).toContain('is released by .github/workflows/release-n8n.yml, not from this machine');
    expect(output(result)).toContain(`git tag ${tag} && git push origin ${tag}`);
    expect(output(result)).not.toContain('$ npm'); // built nothing, published nothing
    // Blocked until the maintainers add their e-mail (n8n's scanner requires one; RELEASING.md).
    expect(result.status).toBe(pkg.author.email ? 0 : 1);
  });

  it('on GitHub Actions it refuses a tag for another version and another repository', () => {
    const result = node(
      ['scripts/release.mjs', '--preflight'],
      githubEnv({ GITHUB_REF: 'refs/tags/n8n-nodes-shortlink@99.0.0', GITHUB_REPOSITORY: 'someone/fork' }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Not releasing ${tag}:`);
    expect(result.stderr).toContain(`runs for refs/tags/n8n-nodes-shortlink@99.0.0, but package.json ${pkg.version} is released by the tag ${tag}`);
    expect(result.stderr).toContain('but the workflow runs in https://github.com/someone/fork');
  });

  it('on GitHub Actions with the right tag and repository only the missing facts remain', () => {
    const result = node(['scripts/release.mjs', '--preflight'], githubEnv());
    expect(output(result)).not.toMatch(/is released by the tag|the workflow runs in/);
    expect(output(result)).not.toMatch(/CHANGELOG|LICENSE|not x\.y\.z/);
    if (pkg.author.email) expect(output(result)).toContain(`Preflight for ${tag} passed.`);
    else expect(result.stderr).toContain('author has no e-mail');
  });
});

describe('the scan of the published version', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-double-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in for the scanner CLI that prints what the real one prints and, like it, exits 0. */
  function scanner(lines: string[]): string {
    const file = join(dir, `scanner-${lines.length}-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, `console.log(${JSON.stringify(lines.join('\n'))});\n`);
    return file;
  }

  it('passes when the scanner says the package passed', () => {
    const result = node(
      ['scripts/scan-published.mjs', '0.1.0', '--scanner', scanner(['✅ Package n8n-nodes-shortlink@0.1.0 has passed all security checks'])],
      laptopEnv(),
    );
    expect(result.status).toBe(0);
  });

  it('fails when the scanner reports a failure, although it exits 0', () => {
    const failing = scanner([
      '❌ Package n8n-nodes-shortlink@0.1.0 has failed security checks',
      'Reason: ESLint violations found',
    ]);
    const result = node(['scripts/scan-published.mjs', '0.1.0', '--scanner', failing], laptopEnv());
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("did not pass n8n's community-package scan");
  });

  it('fails when the scanner gives no verdict for this version', () => {
    const other = scanner(['✅ Package n8n-nodes-shortlink@0.0.9 has passed all security checks']);
    expect(node(['scripts/scan-published.mjs', '0.1.0', '--scanner', other], laptopEnv()).status).toBe(1);
  });
});

/** A loopback port with nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
