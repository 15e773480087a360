/**
 * The core's floors (docs/architecture.md, "The core's floors"), as .dependency-cruiser.cjs writes them:
 * every file of packages/core/src stands on exactly one floor, the import graph drawn from the code has no
 * import that runs back up and no cycle, and the check is real — an upward import or a cycle in a copy of the
 * core fails it. `npm run lint:deps` runs the same check in `npm test`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'packages', 'core', 'src');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the checker's own configuration file (CommonJS)
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string; from: { path: string }; to: { path?: string | string[] } }> };
const floors = config.forbidden.filter((rule) => rule.name.startsWith('no-upward-from-')).map((rule) => ({ name: rule.name.replace('no-upward-from-', ''), path: new RegExp(rule.from.path) }));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
}

type Violation = { rule: { name: string }; from: string; to: string };

/** The checker as `npm run lint:deps` runs it (its CLI; the package is ES modules only), on the tree at `root`. */
async function violationsIn(root: string): Promise<string[]> {
  const cli = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
  const args = [cli, 'packages/core/src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const result = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
}

test('every file of the core stands on exactly one floor (the top one: the faces)', () => {
  // The faces floor is the top: it has no rule of its own.
  const top = new RegExp('^packages/core/src/(index|portable|faces/.+)\\.ts$');
  for (const file of files(SRC)) {
    const path = relative(ROOT, file);
    const on = [...floors.filter((floor) => floor.path.test(path)).map((floor) => floor.name), ...(top.test(path) ? ['faces'] : [])];
    expect({ path, floors: on.length }).toEqual({ path, floors: 1 });
  }
});

test('the import graph has no import that runs back up and no cycle', async () => {
  expect(await violationsIn(ROOT)).toEqual([]);
}, 120_000);

test('an upward import or a cycle fails the check', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'shortlink-floors-'));
  try {
    cpSync(SRC, join(copy, 'packages', 'core', 'src'), { recursive: true });
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16' } }));
    // The ground reaching up into the client, and two files of one room that import each other.
    writeFileSync(join(copy, 'packages', 'core', 'src', 'basics', 'upward.ts'), "import type { ShortLinkClient } from '../client';\nexport type Up = ShortLinkClient;\n");
    writeFileSync(join(copy, 'packages', 'core', 'src', 'forms', 'ring-a.ts'), "import { b } from './ring-b';\nexport const a = (): number => b() + 1;\n");
    writeFileSync(join(copy, 'packages', 'core', 'src', 'forms', 'ring-b.ts'), "import { a } from './ring-a';\nexport const b = (): number => a() - 1;\n");
    const found = await violationsIn(copy);
    expect(found).toEqual(
      expect.arrayContaining([
        'no-upward-from-ground: packages/core/src/basics/upward.ts → packages/core/src/client.ts',
        expect.stringMatching(/^no-cycle: packages\/core\/src\/forms\/ring-[ab]\.ts → packages\/core\/src\/forms\/ring-[ab]\.ts$/),
      ]),
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}, 120_000);
