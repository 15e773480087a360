/**
 * The n8n package as a repository of its own (packages/n8n-nodes-shortlink/scripts/standalone.mjs) and the first
 * half of a release that pushes it there (scripts/sync-standalone.mjs), here into a local bare repository. What
 * the tree holds and says; its build, lint, gates and a real n8n run in the e2e suite's global setup
 * (test/e2e/support/standalone-tree.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { lintWorkflow } from '../../scripts/workflows/lint';

const root = resolve(__dirname, '..', '..');
const packageDir = join(root, 'packages', 'n8n-nodes-shortlink');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'standalone-test-'));
const tree = join(work, 'tree');
const read = (path: string) => readFileSync(join(tree, path), 'utf8');
const runCommands = (text: string) => [...text.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((m) => m[1]!.trim());
const node = (args: string[], env: NodeJS.ProcessEnv = process.env) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env, timeout: 120_000 });
const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });

beforeAll(() => {
  const written = node([join(packageDir, 'scripts', 'standalone.mjs'), tree]);
  if (written.status !== 0) throw new Error(written.stderr);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the standalone tree', () => {
  const shipped = () => JSON.parse(read('package.json'));

  it('is the package with n8n starter scripts, its own repository and no repository.directory', () => {
    const standalone = shipped();
    for (const field of ['name', 'version', 'description', 'license', 'keywords', 'author', 'engines', 'n8n', 'peerDependencies', 'publishConfig', 'homepage']) {
      expect([field, standalone[field]]).toEqual([field, pkg[field]]);
    }
    expect(standalone.repository).toEqual({ type: 'git', url: 'git+https://github.com/shortlink-integrations/n8n-nodes-shortlink.git' });
    expect(standalone.scripts).toMatchObject({ build: 'n8n-node build', lint: 'n8n-node lint', release: 'node scripts/release.mjs', prepublishOnly: 'node scripts/publish-guard.mjs' });
    expect(standalone.files).toEqual(['dist', 'LICENSE', 'THIRD-PARTY-NOTICES.md']);
    expect(Object.keys(standalone.devDependencies).sort()).toEqual(['@n8n/node-cli', 'eslint', 'n8n-workflow', 'typescript']);
    expect(standalone.dependencies).toBeUndefined();
  });

  it("has the node sources as they are, n8n's unchanged lint config, the core as JavaScript with its declarations", () => {
    expect(read('nodes/ShortLink/ShortLink.node.ts')).toBe(readFileSync(join(packageDir, 'nodes/ShortLink/ShortLink.node.ts'), 'utf8'));
    const template = join(root, 'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs');
    expect(read('eslint.config.mjs').replace(/\s+/g, ' ').trim()).toBe(readFileSync(template, 'utf8').replace(/\s+/g, ' ').trim());
    expect(read('nodes/core.ts')).toContain("from '../vendor/core'");
    // Every face of the core the door imports is the vendored module, none a path into packages/core.
    expect(read('nodes/core.ts')).not.toMatch(/core\/src\//);
    expect(JSON.parse(read('vendor/core/package.json'))).toMatchObject({ main: 'core.js', types: 'types/index.d.ts' });
    expect(read('vendor/core/types/index.d.ts')).toBe("export * from './portable';\nexport * from './faces/operations';\nexport * from './faces/host';\n");
    for (const face of ['portable', 'faces/operations', 'faces/host']) expect(existsSync(join(tree, `vendor/core/types/${face}.d.ts`))).toBe(true);
    // No TypeScript of the core: n8n's lint would read it as node code.
    const coreSources = readdirSync(join(tree, 'vendor/core/types'), { recursive: true }).map(String).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    expect(coreSources).toEqual([]);
    expect(read('THIRD-PARTY-NOTICES.md')).toMatch(/## fflate [\d.]+ \(MIT\)[\s\S]*## uqr [\d.]+ \(MIT\)/);
    expect(read('LICENSE')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
  });

  it('its README and CHANGELOG link into this repository with absolute addresses', () => {
    for (const file of ['README.md', 'CHANGELOG.md']) {
      const relativeLinks = [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^(https?:|#|mailto:)/.test(target));
      expect([file, relativeLinks]).toEqual([file, []]);
    }
    expect(read('README.md')).toContain('This repository is written from [shortlink-integrations/shortlink-integrations]');
  });

  it('publishes from its own GitHub Actions workflow with provenance, and its CI lints, builds and checks the stand-in rules', async () => {
    const publish = read('.github/workflows/publish.yml');
    const ci = read('.github/workflows/ci.yml');
    expect(await lintWorkflow(publish, '.github/workflows/publish.yml')).toEqual([]);
    expect(await lintWorkflow(ci, '.github/workflows/ci.yml')).toEqual([]);
    expect(publish).toMatch(/^on:\n {2}push:\n {4}tags:\n {6}- 'n8n-nodes-shortlink@\*'\n/m);
    expect(publish).toMatch(/ {4}permissions:\n {6}contents: read\n {6}id-token: write\n/);
    expect(publish.match(/secrets\.\w+/g)).toEqual(['secrets.NPM_TOKEN']);
    expect(runCommands(publish)).toEqual(['npm ci', 'npm run release', 'node scripts/scan-published.mjs "$VERSION"']);
    expect(runCommands(ci)).toEqual(['npm ci', 'npm run lint', 'npm run build', 'npm run check:rules']);
  });

  it('its release script says the tree releases through publish.yml, and checks the author first', () => {
    const laptop = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(GITHUB_|ACTIONS_|RUNNER_|npm_|CI$)/i.test(key)));
    const result = spawnSync(process.execPath, ['scripts/release.mjs'], { cwd: tree, encoding: 'utf8', env: laptop });
    expect(`${result.stdout}${result.stderr}`).toContain('is released by .github/workflows/publish.yml, not from this machine');
    expect(result.status).toBe(pkg.author.email ? 0 : 1);
  });
});

describe('sync-standalone.mjs (into a local bare repository)', () => {
  const bare = join(work, 'package.git');
  const sync = (...extra: string[]) => node([join(packageDir, 'scripts', 'sync-standalone.mjs'), '--remote', bare, ...extra], laptopEnv());
  const laptopEnv = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(GITHUB_|ACTIONS_|RUNNER_|npm_|CI$)/i.test(key)));

  beforeAll(() => {
    git(work, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  });

  it('commits the tree and pushes it with the tag; a second push of the version is refused', () => {
    const first = sync('--rehearsal', '--no-lockfile');
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain(`Pushed n8n-nodes-shortlink@${pkg.version} to ${bare}`);
    expect(git(bare, 'tag', '--list').stdout.trim()).toBe(`n8n-nodes-shortlink@${pkg.version}`);
    const files = git(bare, 'ls-tree', '-r', '--name-only', 'main').stdout.split('\n');
    expect(files).toEqual(expect.arrayContaining(['package.json', '.github/workflows/publish.yml', 'nodes/ShortLink/ShortLink.node.ts', 'vendor/core/core.js']));
    expect(files.filter((file) => file.startsWith('node_modules/') || file.startsWith('dist/'))).toEqual([]);
    expect(git(bare, 'log', '-1', '--format=%s', 'main').stdout).toMatch(/^n8n-nodes-shortlink@[\d.]+: written from https:\/\/github\.com\/shortlink-integrations\/shortlink-integrations at [0-9a-f]{40}/);

    const again = sync('--rehearsal', '--no-lockfile');
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('already has the tag');
  });

  it('off GitHub Actions it needs a --remote; a rehearsal is refused on GitHub Actions', () => {
    const without = node([join(packageDir, 'scripts', 'sync-standalone.mjs'), '--rehearsal'], laptopEnv());
    expect(without.status).toBe(1);
    expect(without.stderr).toContain('off GitHub Actions this needs --remote');
    const onActions = node([join(packageDir, 'scripts', 'sync-standalone.mjs'), '--rehearsal', '--remote', bare], { ...laptopEnv(), GITHUB_ACTIONS: 'true', GITHUB_REF: `refs/tags/n8n-nodes-shortlink@${pkg.version}` });
    expect(onActions.status).toBe(1);
    expect(onActions.stderr).toContain('--rehearsal is for tests, not for a release');
    expect(onActions.stderr).toContain('N8N_PACKAGE_DEPLOY_KEY is empty');
  });
});
