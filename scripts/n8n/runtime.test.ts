/**
 * The environment of the npm that installs the n8n runtime. Started from `npm start`, `npm run test:e2e`
 * or `.ci/run`, our own process carries npm's exported settings (`npm_config_ignore_scripts=true` from the
 * project's .npmrc among them); a child npm that inherits them silently skips sqlite3's compile step.
 * These tests pollute the environment the way npm does and ask a real child npm what it sees.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24Env, projectNodeDir, rebuildWithScripts, runtimeInstallEnv } from './runtime';

/** What npm (and jest, tsx, npx) put into a script's environment, plus the settings that broke the install. */
const POLLUTION: Record<string, string> = {
  npm_config_ignore_scripts: 'true',
  NPM_CONFIG_IGNORE_SCRIPTS: 'true',
  npm_config_local_prefix: '/work/somewhere-else',
  npm_config_nodedir: '/usr',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_config_global_prefix: '/usr',
  npm_config_offline: 'true',
  npm_lifecycle_event: 'start',
  npm_package_name: 'shortlink-integrations',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  INIT_CWD: '/work/main',
  NODE: '/usr/bin/node',
  NODE_OPTIONS: '--require /nonexistent/loader.js',
  NODE_ENV: 'test',
  JEST_WORKER_ID: '1',
};

let saved: NodeJS.ProcessEnv;
let dir: string;

beforeEach(() => {
  saved = { ...process.env };
  Object.assign(process.env, POLLUTION);
  process.env.PATH = `/work/main/node_modules/.bin:/work/node_modules/.bin:${saved.PATH ?? ''}`;
  dir = mkdtempSync(join(tmpdir(), 'shortlink-install-env-'));
});

afterEach(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** `npm config get <key>` as the child npm of the install sees it, in a folder of its own. */
function childNpmConfig(keys: string[]): string[] {
  const output = execFileSync('npm', ['config', 'get', ...keys], { cwd: dir, env: runtimeInstallEnv(), encoding: 'utf8' });
  // One key prints its value; several print "key=value" lines.
  const lines = output.trim().split('\n');
  return keys.length === 1 ? lines : lines.map((line) => line.replace(/^[^=]+=/, ''));
}

describe('the install environment', () => {
  it('passes on none of the variables npm, jest or tsx exported', () => {
    const env = runtimeInstallEnv();
    const inherited = Object.keys(POLLUTION).filter((name) => env[name] === POLLUTION[name]);
    expect(inherited).toEqual([]);
    // Only the settings the install names itself reach npm.
    expect(Object.keys(env).filter((name) => /^npm_/i.test(name)).sort()).toEqual([
      'npm_config_audit',
      'npm_config_fund',
      'npm_config_nodedir',
      'npm_config_update_notifier',
    ]);
    expect(env.npm_config_nodedir).toBe(projectNodeDir());
  });

  it('puts Node 24 first on the PATH and drops the node_modules/.bin folders of `npm run`', () => {
    const path = runtimeInstallEnv().PATH!.split(':');
    expect(path[0]).toBe(join(projectNodeDir(), 'bin'));
    expect(path.filter((entry) => entry.endsWith('node_modules/.bin'))).toEqual([]);
    expect(execFileSync('node', ['--version'], { env: runtimeInstallEnv(), encoding: 'utf8' }).trim()).toMatch(/^v24\./);
  });

  it('a real child npm sees scripts allowed, Node 24 headers and its own folder, whatever the parent exported', () => {
    const [ignoreScripts, nodedir, offline] = childNpmConfig(['ignore-scripts', 'nodedir', 'offline']);
    expect(ignoreScripts).toBe('false');
    expect(nodedir).toBe(projectNodeDir());
    expect(offline).toBe('false');
    expect(execFileSync('npm', ['prefix'], { cwd: dir, env: runtimeInstallEnv(), encoding: 'utf8' }).trim()).toBe(dir);
  });

  it('the rebuild step runs install scripts even with ignore-scripts set by the parent and in the folder', () => {
    // A package with an install script, installed without running it (as the n8n install does).
    mkdirSync(join(dir, 'probe'));
    writeFileSync(
      join(dir, 'probe', 'package.json'),
      JSON.stringify({ name: 'probe', version: '1.0.0', scripts: { install: 'node -e "require(\'fs\').writeFileSync(\'compiled\', process.version)"' } }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'runtime', private: true, dependencies: { probe: 'file:./probe' } }));
    writeFileSync(join(dir, '.npmrc'), 'ignore-scripts=true\n');
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], { cwd: dir, env: runtimeInstallEnv(), stdio: 'pipe' });
    const marker = join(dir, 'node_modules', 'probe', 'compiled');
    expect(existsSync(marker)).toBe(false);

    return rebuildWithScripts(dir, 'probe', () => undefined).then(() => {
      expect(readFileSync(marker, 'utf8')).toMatch(/^v24\./);
    });
  });

  it('node24Env keeps what the user set and applies extra values (undefined removes one)', () => {
    process.env.SHORTLINK_TEST_SETTING = 'kept';
    const env = node24Env({ N8N_PORT: '5678', SHORTLINK_TEST_SETTING: undefined, HTTPS_PROXY: 'http://proxy.local:3128' });
    expect(env.N8N_PORT).toBe('5678');
    expect(env.SHORTLINK_TEST_SETTING).toBeUndefined();
    expect(env.HTTPS_PROXY).toBe('http://proxy.local:3128');
    expect(env.HOME).toBe(saved.HOME);
  });
});
