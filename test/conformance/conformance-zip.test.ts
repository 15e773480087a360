/**
 * A subset of the conformance table through the artefact Zapier runs: build/build.zip unzipped as the
 * CLI's "Testing build" does, its Lambda handler (zapierwrapper.js) called in a plain Node child process,
 * against fresh sandboxes of the same fixtures. The outputs must equal the core's, as in conformance.test.ts.
 * Skipped only when no zip has been built (`npm run build -w shortlink-zapier`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import cases from './cases.json';
import { resolveValues, startFixture, type ConformanceCase, type Fixture } from './support/fixtures';
import { normalize, type Outcome } from './support/outcome';
import { runCore } from './support/core-host';
import { checkSame } from './support/compare';
import { zapierBundle, zapierOutcome, zapierStepFor } from './support/zapier-host';

const ZIP = join(__dirname, '..', '..', 'packages', 'zapier', 'build', 'build.zip');
const describeWithZip = existsSync(ZIP) ? describe : describe.skip;

/** One case per Zapier step, and bad input. */
const SUBSET = [
  'create with UTM fields',
  'create refuses a bad slug before sending',
  'find or create reuses the link of a UTM-tagged target',
  'find or create makes a link when the UTM fields differ',
  'get by short URL',
  'get of an unknown ID',
  'find by UTM-tagged target',
  'update UTM fields on the current target',
  'delete of an unknown ID is already deleted',
  'statistics in one record',
  'statistics per day of a link nobody clicked, with days without clicks',
  'QR code of a link by ID, PNG by default',
  'report of chosen links, one total row per link',
  'find or create many: a preview of a sheet says per row what would happen, and writes nothing',
  "find or create many: a submit of other rows than the token's is refused, nothing created (bad input)",
];

/** Runs in the unzipped folder: every call through the handler exactly as Zapier invokes it. */
const RUNNER = `
const { handler } = require('./zapierwrapper.js');
const calls = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
(async () => {
  const results = [];
  for (const { method, bundle } of calls) {
    try {
      const answer = await handler({ command: 'execute', method, bundle, zcacheTestObj: {} });
      results.push({ output: answer.results });
    } catch (error) {
      results.push({ error: String(error && error.message) });
    }
  }
  process.stdout.write(JSON.stringify(results));
})();
`;

const table = (cases.cases as ConformanceCase[]).filter((testCase) => SUBSET.includes(testCase.name));

describeWithZip('the built Zapier zip', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortlink-conformance-zip-'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped CLI internal (as in packages/zapier/test/build.zip.test.ts)
    const decompress = require('zapier-platform-cli/src/utils/decompress') as (zip: string, dir: string) => Promise<unknown>;
    await decompress(ZIP, dir);
    writeFileSync(join(dir, 'run-calls.js'), RUNNER);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One child process per case; each invoke of the case is recorded, then replayed from the answers. */
  async function throughZip(bundle: object, methods: string[]): Promise<Array<{ output?: unknown; error?: string }>> {
    const file = join(dir, `calls-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(methods.map((method) => ({ method, bundle }))));
    const { stdout } = await promisify(execFile)(process.execPath, ['run-calls.js', file], {
      cwd: dir,
      env: { ...process.env, SHORTLINK_ZAPIER_LOCAL_DEV: 'true' },
      timeout: 60_000,
    });
    return JSON.parse(stdout) as Array<{ output?: unknown; error?: string }>;
  }

  it('runs the subset (one case per step, with bad input)', () => {
    expect(table.map((testCase) => testCase.name).sort()).toEqual([...SUBSET].sort());
  });

  it.each(table.map((testCase) => [`${testCase.operation}: ${testCase.name}`, testCase] as const))('%s: the zip gives what the core gives', async (_name, testCase) => {
    const step = zapierStepFor(testCase.operation, testCase.values)!;
    const timeZone = testCase.timeZone ?? 'UTC';
    const outcomeOn = async (run: (fixture: Fixture, values: Record<string, unknown>) => Promise<Outcome>): Promise<Outcome> => {
      const fixture = await startFixture(testCase.account);
      try {
        const values = resolveValues(testCase.values, fixture);
        return normalize(await run(fixture, values), fixture.baseUrl, values.slug);
      } finally {
        await fixture.close();
      }
    };
    const core = await outcomeOn((fixture, values) => runCore(testCase.operation, values, fixture, timeZone));
    const zip = await outcomeOn(async (fixture, values) => {
      const bundle = zapierBundle(values, fixture, timeZone);
      // Find or Create's two halves are two invocations of the handler, as on Zapier.
      const methods = step.method === 'searchOrCreates.find_link'
        ? ['searches.find_link.operation.perform', 'creates.find_or_create_link.operation.perform']
        : [`${step.method}.operation.perform`];
      const answers: Array<{ output?: unknown; error?: string }> = [];
      for (const method of methods) {
        const [answer] = await throughZip(bundle, [method]);
        answers.push(answer!);
        if (answer!.error !== undefined || (Array.isArray(answer!.output) && answer!.output.length > 0)) break;
      }
      let next = 0;
      return zapierOutcome(step, bundle, async () => {
        const answer = answers[next++]!;
        if (answer.error !== undefined) throw new Error(answer.error);
        return answer.output;
      });
    });
    checkSame('zapier', zip, core);
  });
});
