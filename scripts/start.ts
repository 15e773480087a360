/**
 * `npm start`: the playground. A seeded sandbox of the API and a real n8n editor with our package
 * installed as a community package, the owner account made, a credential pointing at the sandbox and
 * the example workflows imported once (with stand-ins for their Google Sheets and Slack steps, so they run
 * without those accounts; the trigger example switched off). Prints where everything is; Ctrl-C stops
 * everything it started.
 *
 * The first run installs the n8n runtime into ~/.cache/shortlink-n8n (2–3 GB, 4–6 minutes); later runs
 * reuse it and are ready in well under a minute. State (n8n's database, the sandbox's links) is kept in
 * the playground folder between runs, and so are the user's edits of the examples; `--fresh` starts over.
 * `--docker` runs the n8nio/n8n image instead of the npm route when a Docker daemon answers (playground-route.ts).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox, type Sandbox } from '../packages/sandbox/src/index';
import { loadExampleWorkflows } from './n8n/examples';
import { chooseRoute, dockerDaemonAnswers, startDockerN8n } from './n8n/playground-route';
import { withAccountStandIns } from './n8n/stand-ins';
import { N8nInstance } from './n8n/instance';
import { cacheRoot, chosenN8nVersion, ensureN8nRuntime, node24Env, repoRoot } from './n8n/runtime';

const USAGE = `Usage: npm start -- [options]
  --port <n>           n8n editor port (default 5678; the task broker uses the next port)
  --sandbox-port <n>   sandbox API port (default 8787)
  --api-key <key>      the sandbox's demo API key (default playground-demo-key)
  --plan-links <n>     links the demo account may create per month (default: its plan's 1000000); set on every start
  --fresh              forget the playground's state (n8n database, sandbox links, the imported examples) and start over
  --docker             run n8n from the n8nio/n8n Docker image (needs a running Docker daemon; n8n 3.0 is Docker-only)
  --help               this text
Environment: N8N_E2E_VERSION=1.123.81 picks the n8n 1.x line; SHORTLINK_PLAYGROUND_DIR moves the state folder.`;

const OWNER = { email: 'playground@example.com', password: 'Playground-1', firstName: 'Play', lastName: 'Ground' };
const CREDENTIAL = { id: 'slPlayground', name: 'Short Link sandbox' };
/** The image of the Docker route (n8n 3.0 is published as this image only). */
const DOCKER_IMAGE = 'n8nio/n8n:latest';
/** Written once the examples are imported: later starts keep the user's edits. */
const IMPORTED_MARK = 'examples-imported';

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function port(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 65534) throw new UsageError(`--${name} must be a port from 1 to 65534, got "${text}".`);
  return value;
}

class UsageError extends Error {}

function parseOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      port: { type: 'string' },
      'sandbox-port': { type: 'string' },
      'api-key': { type: 'string' },
      'plan-links': { type: 'string' },
      fresh: { type: 'boolean' },
      docker: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  const apiKey = values['api-key'] ?? 'playground-demo-key';
  if (!/^\S{8,}$/.test(apiKey)) throw new UsageError('--api-key must be at least 8 characters without spaces.');
  const planLinks = values['plan-links'];
  if (planLinks !== undefined && !/^\d+$/.test(planLinks)) throw new UsageError(`--plan-links must be a whole number of links (0 or more), got "${planLinks}".`);
  return {
    help: values.help === true,
    fresh: values.fresh === true,
    docker: values.docker === true,
    planLinks: planLinks === undefined ? undefined : Number(planLinks),
    editorPort: port('port', values.port, 5678),
    sandboxPort: port('sandbox-port', values['sandbox-port'], 8787),
    apiKey,
  };
}

/** Builds and packs the n8n package as a release would; returns the tarball. */
function packN8nPackage(outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const run = (args: string[]) => execFileSync('npm', args, { cwd: repoRoot, env: node24Env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  run(['run', 'build', '-w', 'n8n-nodes-shortlink']);
  const [packed] = JSON.parse(run(['pack', '-w', 'n8n-nodes-shortlink', '--pack-destination', outDir, '--json'])) as Array<{ filename: string }>;
  return join(outDir, packed!.filename.replace(/^.*\//, ''));
}

/** The encryption key must stay the same across runs, or n8n cannot read its own credentials. */
function encryptionKey(stateDir: string): string {
  const file = join(stateDir, 'encryption-key');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function zapierLines(sandbox: Sandbox, apiKey: string): string[] {
  // The sandbox is on this machine: the app accepts that only behind its local-development switch (src/baseUrl.ts).
  const env = `SHORTLINK_ZAPIER_LOCAL_DEV=true authData_apiKey=${apiKey} authData_baseUrl=${sandbox.baseUrl}`;
  return [
    '  cd packages/zapier && npm run build   # once, bundles the app',
    `  ${env} npx zapier-platform invoke auth test --non-interactive`,
    `  ${env} npx zapier-platform invoke trigger new_link --non-interactive`,
    `  ${env} npx zapier-platform invoke create create_link --inputData '{"targetUrl":"https://example.org/from-zapier","utmSource":"zapier"}' --non-interactive`,
    `  ${env} npx zapier-platform invoke search find_link --inputData '{"slug":"spring-sale"}' --non-interactive`,
  ];
}

let sandbox: Sandbox | undefined;
let n8n: N8nInstance | undefined;
let stopping = false;
let dockerStop: (() => Promise<void>) | undefined;

/** Stops what this run started (n8n first: it polls the sandbox), then exits. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (n8n || sandbox) say('\nStopping n8n and the sandbox…');
  await n8n?.stop();
  await dockerStop?.();
  await sandbox?.close();
  if (n8n || sandbox) say('Stopped.');
  process.exit(code);
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    say(USAGE);
    return;
  }

  const version = chosenN8nVersion();
  const stateDir = process.env.SHORTLINK_PLAYGROUND_DIR || join(cacheRoot(), `playground-${version}`);
  if (options.fresh) rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });

  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  say(`Short Link playground (n8n ${version}); state in ${stateDir}`);
  const route = chooseRoute({ dockerRequested: options.docker, daemonAnswers: options.docker ? dockerDaemonAnswers() : false });
  say(route.explanation);
  if (route.route === 'refused') {
    process.exitCode = 2;
    return;
  }
  if (route.route === 'docker') {
    say('Building and packing n8n-nodes-shortlink…');
    const tarball = packN8nPackage(join(stateDir, 'package'));
    sandbox = await startSandbox({ port: options.sandboxPort, demoApiKey: options.apiKey, demoLinkQuota: options.planLinks, dataFile: join(stateDir, 'sandbox-data.json') });
    dockerStop = startDockerN8n(
      { image: DOCKER_IMAGE, containerName: 'shortlink-playground', editorPort: options.editorPort, userFolder: join(stateDir, 'docker-n8n'), encryptionKey: encryptionKey(stateDir) },
      tarball,
      say,
    );
    say(`Sandbox ${sandbox.baseUrl}/api/v1, API key: ${options.apiKey}. In the editor: create the owner, then a Short Link API credential with that key and base URL ${sandbox.baseUrl}; import the examples from examples/n8n (Workflows → Import from File).`);
    return;
  }
  const runtime = await ensureN8nRuntime({ version, log: say });
  if (stopping) return;

  say('Building and packing n8n-nodes-shortlink…');
  const tarball = packN8nPackage(join(stateDir, 'package'));

  sandbox = await startSandbox({ port: options.sandboxPort, demoApiKey: options.apiKey, demoLinkQuota: options.planLinks, dataFile: join(stateDir, 'sandbox-data.json') });
  say(`Sandbox listening on ${sandbox.baseUrl}`);

  n8n = new N8nInstance({
    runtime,
    userFolder: join(stateDir, 'n8n'),
    port: options.editorPort,
    brokerPort: options.editorPort + 1,
    encryptionKey: encryptionKey(stateDir),
  });
  say('Installing the package into n8n and importing the credential…');
  await n8n.installCommunityPackage(tarball);
  await n8n.importCredential({ ...CREDENTIAL, apiKey: options.apiKey, baseUrl: sandbox.baseUrl });
  const examples = loadExampleWorkflows();
  const markFile = join(stateDir, IMPORTED_MARK);
  if (existsSync(markFile)) {
    say(`The examples were imported on ${readFileSync(markFile, 'utf8').trim()}: your edits are kept (--fresh imports them again).`);
  } else {
    // With stand-ins for the Google Sheets and Slack steps; imported inactive (the New Link trigger too: it would
    // poll once a minute and share the key's 120 requests a minute with every run).
    await n8n.importWorkflows(examples.map((example) => withAccountStandIns(example.workflow)), CREDENTIAL);
    writeFileSync(markFile, `${new Date().toISOString()}\n`);
    say(`Imported ${examples.length} examples (Google Sheets and Slack steps as playground stand-ins; the trigger example switched off).`);
  }

  say(`Starting the n8n editor on ${n8n.editorUrl}…`);
  await n8n.start();
  await n8n.setupOwnerOnce(OWNER);

  say('');
  say('Short Link playground is ready.');
  say(`  n8n editor     ${n8n.editorUrl}`);
  say(`  login          ${OWNER.email} / ${OWNER.password}`);
  say(`  sandbox API    ${sandbox.baseUrl}/api/v1   (OpenAPI: ${sandbox.baseUrl}/api/v1/openapi.json)`);
  say(`  API key: ${options.apiKey}`);
  say(`  credential     "${CREDENTIAL.name}" (Short Link API) → ${sandbox.baseUrl}`);
  const plan = sandbox.linkQuotaOf(sandbox.demoAccountId);
  say(`  plan quota     ${plan.linkQuota === null ? 'unlimited' : plan.linkQuota} links a month, ${plan.used} used (--plan-links <n> changes it)`);
  say(`  workflows      ${examples.length} examples: ${examples.map((example) => example.workflow.name).join('; ')}`);
  say('Try the Zapier app against the same sandbox:');
  for (const line of zapierLines(sandbox, options.apiKey)) say(line);
  say('Press Ctrl-C to stop everything.');

  n8n.onExit((code) => {
    if (stopping) return;
    process.stderr.write(`n8n stopped on its own (code ${code}); its last output:\n${n8n!.output.slice(-3000)}\n`);
    void stop(1);
  });
}

main().catch(async (error: unknown) => {
  process.stderr.write(`The playground could not start: ${(error as Error).message}\n`);
  await stop(1);
});
