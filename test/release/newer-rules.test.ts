/**
 * packages/n8n-nodes-shortlink/scripts/newer-rules.mjs: the rules of n8n's current community-nodes lint plugin
 * that the served one (0.32.0) lacks. It fails on what each rule rejects, passes on the package (built by
 * `npm test` before jest), gives way to the installed plugin for a rule it has, and this file fails when the
 * installed plugin gains one of them, so that the stand-in is deleted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const packageDir = join(root, 'packages', 'n8n-nodes-shortlink');
const script = join(packageDir, 'scripts', 'newer-rules.mjs');
const STAND_IN = ['no-monorepo', 'hint-max-length', 'no-hardcoded-ids', 'require-param-default', 'valid-node-categories'];

interface Result {
  findings: Array<{ rule: string; where: string; message: string }>;
  givenWay: string[];
  checked: string[];
}

/** The check on `dir`; a fixture's run says the installed plugin has none of the rules (no plugin to load). */
function check(dir: string, extra: string[] = dir === packageDir ? [] : ['--plugin-rules', '']): Result & { status: number | null } {
  const run = spawnSync(process.execPath, [script, '--package', dir, '--json', ...extra], { cwd: root, encoding: 'utf8' });
  if (!run.stdout.trim()) throw new Error(run.stderr);
  return { ...(JSON.parse(run.stdout) as Result), status: run.status };
}

const property = (extra: Record<string, unknown>) => ({ displayName: 'Target URL', name: 'targetUrl', type: 'string', default: '', ...extra });

/** A package folder with one built node (dist) whose description has `properties`, and its codex and sources. */
function fixture(options: { repository?: Record<string, string>; properties?: unknown[]; codex?: unknown; nodeSource?: string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'newer-rules-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const pkg = {
    name: 'n8n-nodes-fixture',
    repository: options.repository ?? { type: 'git', url: 'git+https://github.com/someone/n8n-nodes-fixture.git' },
    n8n: { nodes: ['dist/nodes/Fixture/Fixture.node.js'], credentials: [] },
  };
  write('package.json', JSON.stringify(pkg));
  const description = { displayName: 'Fixture', name: 'fixture', properties: options.properties ?? [property({})] };
  write('dist/nodes/Fixture/Fixture.node.js', `class Fixture { constructor() { this.description = ${JSON.stringify(description)}; } }\nexports.Fixture = Fixture;\n`);
  write('nodes/Fixture/Fixture.node.json', JSON.stringify(options.codex ?? { node: 'n8n-nodes-fixture.fixture', categories: ['Marketing & Content'] }));
  write('nodes/Fixture/Fixture.node.ts', options.nodeSource ?? 'export class Fixture {}\n');
  return dir;
}

const folders: string[] = [];
const made = (dir: string) => (folders.push(dir), dir);
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const rulesOf = (result: Result) => result.findings.map((finding) => finding.rule);

describe('the stand-in rules', () => {
  it('pass on a package that breaks none of them', () => {
    const result = check(made(fixture({ properties: [property({ hint: 'h'.repeat(120) })] })));
    expect(result.findings).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('no-monorepo: fail on a repository.directory', () => {
    const result = check(made(fixture({ repository: { type: 'git', url: 'git+https://github.com/someone/all.git', directory: 'packages/n8n-nodes-fixture' } })));
    expect(rulesOf(result)).toEqual(['no-monorepo']);
    expect(result.findings[0]!.message).toContain('repository.directory is "packages/n8n-nodes-fixture"');
    expect(result.status).toBe(1);
  });

  it('hint-max-length: fail on a 121-character hint, also inside a collection', () => {
    const long = 'h'.repeat(121);
    const result = check(
      made(fixture({ properties: [property({ hint: long }), { displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [property({ name: 'inner', hint: long })] }] })),
    );
    expect(rulesOf(result)).toEqual(['hint-max-length', 'hint-max-length']);
    expect(result.findings[0]!.message).toContain('121 characters, over 120');
    expect(result.findings[1]!.where).toContain('(inner)');
  });

  it('require-param-default: fail on a parameter without default, not on a resource locator mode', () => {
    const { default: _dropped, ...noDefault } = property({ name: 'slug' });
    const locator = { displayName: 'Link', name: 'link', type: 'resourceLocator', default: { mode: 'id', value: '' }, modes: [{ displayName: 'ID', name: 'id', type: 'string' }] };
    const result = check(made(fixture({ properties: [noDefault, locator, { displayName: 'Note', name: 'note', type: 'notice' }] })));
    expect(result.findings.map((finding) => [finding.rule, finding.message])).toEqual([
      ['require-param-default', 'the parameter "slug" (string) has no default'],
      ['require-param-default', 'the parameter "note" (notice) has no default'],
    ]);
  });

  it('valid-node-categories: fail on "Marketing", an unknown category and AI without subcategories', () => {
    const result = check(made(fixture({ codex: { categories: ['Marketing', 'Bananas', 'AI'] } })));
    expect(result.findings.map((finding) => finding.message)).toEqual([
      '"Marketing" is not a category: use "Marketing & Content"',
      expect.stringContaining('"Bananas" is not one of n8n\'s node categories'),
      'the "AI" category needs a non-empty subcategories.AI',
    ]);
  });

  it('no-hardcoded-ids: fail on a fixed partner or account id in a .node.ts, not on a comparison', () => {
    const nodeSource = "const partnerId = 'fixed-partner';\nconst options = { qs: { account_id: \"acme\" } };\nif (accountId === 'x') {}\n";
    const result = check(made(fixture({ nodeSource })));
    expect(result.findings.map((finding) => [finding.rule, finding.where])).toEqual([
      ['no-hardcoded-ids', 'nodes/Fixture/Fixture.node.ts:1'],
      ['no-hardcoded-ids', 'nodes/Fixture/Fixture.node.ts:2'],
    ]);
  });

  it('pass on n8n-nodes-shortlink as built', () => {
    const result = check(packageDir);
    expect(result.findings).toEqual([]);
    expect(result.checked).toEqual(STAND_IN);
  });
});

describe('the installed plugin', () => {
  it('when it has a rule, the stand-in gives way to it', () => {
    const result = check(made(fixture({ repository: { type: 'git', url: 'x', directory: 'packages/x' } })), ['--plugin-rules', 'no-monorepo,valid-author']);
    expect(result.givenWay).toEqual(['no-monorepo']);
    expect(result.checked).not.toContain('no-monorepo');
    expect(result.findings).toEqual([]);
  });

  it('still lacks every rule we stand in for (when it gains one: delete that stand-in from scripts/newer-rules.mjs)', () => {
    const installed = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import { n8nCommunityNodesPlugin as p } from '@n8n/eslint-plugin-community-nodes'; console.log(JSON.stringify(Object.keys(p.rules)));"],
      { cwd: packageDir, encoding: 'utf8' },
    );
    const rules = JSON.parse(installed.stdout) as string[];
    expect(rules.length).toBeGreaterThan(30);
    const gained = STAND_IN.filter((rule) => rules.includes(rule));
    expect(gained.map((rule) => `the installed plugin has ${rule} now: n8n-node lint runs it; remove the stand-in`)).toEqual([]);
    expect(check(packageDir).givenWay).toEqual(gained);
  });
});
