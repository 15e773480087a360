// `npm run build -w shortlink-zapier`: build/build.zip as Zapier gets it, flat, with no symlinks and no file twice.
//
// Why a staging folder: in this npm workspace zapier-platform-core is hoisted to the repository's root
// node_modules, so `zapier-platform build` run in packages/zapier zips from the workspace root: it adds
// symlinks (index.js and zapierwrapper.js at the top, one per workspace package under node_modules, three of
// them dangling) and writes package.json and definition.json twice. Here the app is laid out as a plain,
// non-workspace app instead (a temporary folder: package.json, index.js, dist/app.js, and node_modules with
// zapier-platform-core and its dependencies copied as real folders), and the CLI builds there; its own
// "Testing build" step (unzip, load zapierwrapper.js) then runs on the zip it made. The zips are copied to
// build/, where `zapier-platform upload` (scripts/release.mjs) takes them from.
import { spawnSync } from 'node:child_process';
import { cpSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import zipContents from './zip-contents.cjs';

const { APP_FILES, zipProblems } = zipContents;

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(appDir, '..', '..');
// Outside the repository: no node_modules above it, so nothing can resolve into the workspace's.
const stage = mkdtempSync(join(tmpdir(), 'shortlink-zapier-stage-'));
process.on('exit', () => rmSync(stage, { recursive: true, force: true }));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));

function fail(message) {
  console.error(`\nZapier build failed: ${message}`);
  process.exit(1);
}

/** The folder of `name` as Node resolves it from `fromDir`: the nearest node_modules holding it. */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) fail(`${name} (needed from ${relative(repoRoot, fromDir)}) is not installed; run npm install`);
  }
}

/** zapier-platform-core and everything it depends on at run time (dependencies, not dev/peer/optional). */
function runtimeClosure() {
  const found = new Set();
  const visit = (dir) => {
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) visit(packageDir(name, dir));
  };
  for (const name of Object.keys(pkg.dependencies ?? {})) visit(packageDir(name, appDir));
  return [...found];
}

// 1. The bundle (the app, the portable core and the shared credential in one file).
const bundled = spawnSync(process.execPath, [join(appDir, 'scripts', 'bundle.mjs')], { stdio: 'inherit' });
if (bundled.status !== 0) fail('bundling dist/app.js failed');

// 2. The app as a plain app: its manifest without scripts or devDependencies (nothing is built in there).
mkdirSync(join(stage, 'dist'), { recursive: true });
const { scripts: _scripts, devDependencies: _dev, ...manifest } = pkg;
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(appDir, 'index.js'), join(stage, 'index.js'));
// source.zip (the code Zapier's reviewers read) is the folder minus what .gitignore names: the app, not its dependencies.
writeFileSync(join(stage, '.gitignore'), 'node_modules/\nbuild/\n');
copyFileSync(join(appDir, 'dist', 'app.js'), join(stage, 'dist', 'app.js'));
for (const dir of runtimeClosure()) {
  // Same place relative to a node_modules as in the workspace, so every require resolves as it does here;
  // a package's own nested node_modules comes along only through the closure.
  const rel = relative(repoRoot, dir);
  const inModules = rel.slice(rel.indexOf(`node_modules${sep}`));
  const nested = rel.startsWith(`packages${sep}zapier${sep}`) ? relative(appDir, dir) : inModules;
  cpSync(dir, join(stage, nested), {
    recursive: true,
    dereference: true,
    filter: (source) => !relative(dir, source).split(sep).includes('node_modules'),
  });
}

// 3. The CLI's build in the staging folder (its "Testing build" loads the zip's handler).
const cliPackage = require.resolve('zapier-platform-cli/package.json');
const cliBin = join(dirname(cliPackage), require(cliPackage).bin['zapier-platform']);
const built = spawnSync(process.execPath, [cliBin, 'build', '--skip-dep-install', '--skip-validation'], {
  cwd: stage,
  encoding: 'utf8',
  timeout: 300_000,
  env: { ...process.env, DISABLE_ZAPIER_ANALYTICS: '1', NO_COLOR: '1' },
});
process.stdout.write(`${built.stdout ?? ''}${built.stderr ?? ''}`);
if (built.status !== 0 || !`${built.stdout}`.includes('Build complete!')) fail(`zapier-platform build exited with ${built.status}`);
mkdirSync(join(appDir, 'build'), { recursive: true });
for (const name of ['build.zip', 'source.zip']) copyFileSync(join(stage, 'build', name), join(appDir, 'build', name));

// 4. What the zip holds (zip-contents.cjs).
const { problems, names } = zipProblems(join(appDir, 'build', 'build.zip'));
if (problems.length > 0) fail(`build/build.zip: ${problems.join('; ')}`);
console.log(`\nbuild/build.zip: ${names.length} files, no symlinks, each of ${APP_FILES.join(', ')} once.`);
