#!/usr/bin/env node
/**
 * `npm start` / `npm run sandbox`: a seeded sandbox on a fixed port, its base URL and the demo key
 * printed once. Ctrl-C (or SIGTERM) closes it cleanly.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_RATE_LIMIT, startSandbox } from './index';
import { LINK_QUOTA } from './store';
import type { FaultOptions, Sandbox, SandboxOptions } from './types';

const USAGE = `Usage: npm start -- [options]
  --port <n>                 port (default 8787; 0 = any free port)
  --host <address>           address to listen on (default 127.0.0.1)
  --rate-limit <n>/<seconds> requests per key and window (default ${DEFAULT_RATE_LIMIT.limit}/${DEFAULT_RATE_LIMIT.windowSeconds})
  --api-key <key>            fixed demo API key instead of a random one
  --plan-links <n>           links the demo account may create per calendar month (default: its business plan's ${LINK_QUOTA.business})
  --error-rate <0..1>        share of API requests answered with 500/502/503
  --reset-rate <0..1>        share of API requests whose connection is dropped (half before, half after processing)
  --lost-answer-rate <0..1>  share of API requests processed whose answer is then lost (a 502 or a body cut in half)
  --latency <ms>             delay added to every API request
  --data <file>              keep the data in this JSON file across restarts
  --help                     this text`;

/** A wrong command line: main() prints it with the usage and exits 2. */
export class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

function number(name: string, text: string | undefined, min: number, max = Infinity): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
    fail(`--${name} must be a number ${range}, got "${text}".`);
  }
  return value;
}

export function parseCli(argv: string[]): SandboxOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'rate-limit': { type: 'string' },
        'api-key': { type: 'string' },
        'plan-links': { type: 'string' },
        'error-rate': { type: 'string' },
        'reset-rate': { type: 'string' },
        latency: { type: 'string' },
        'lost-answer-rate': { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (parsed.help) return 'help';

  const options: SandboxOptions = { host: parsed.host ?? '127.0.0.1', port: number('port', parsed.port, 0, 65535) ?? 8787 };
  if (parsed['rate-limit'] !== undefined) {
    const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(parsed['rate-limit']);
    if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) fail(`--rate-limit must look like 120/60 (requests/seconds), got "${parsed['rate-limit']}".`);
    options.rateLimit = { limit: Number(match[1]), windowSeconds: Number(match[2]) };
  }
  if (parsed['api-key'] !== undefined) {
    if (!/^\S{8,}$/.test(parsed['api-key'])) fail('--api-key must be at least 8 characters without spaces.');
    options.demoApiKey = parsed['api-key'];
  }
  const planLinks = number('plan-links', parsed['plan-links'], 0);
  if (planLinks !== undefined) {
    if (!Number.isInteger(planLinks)) fail(`--plan-links must be a whole number of links, got "${parsed['plan-links']}".`);
    options.demoLinkQuota = planLinks;
  }
  const faults: FaultOptions = {};
  const errorRate = number('error-rate', parsed['error-rate'], 0, 1);
  const resetRate = number('reset-rate', parsed['reset-rate'], 0, 1);
  const lostAnswerRate = number('lost-answer-rate', parsed['lost-answer-rate'], 0, 1);
  const latency = number('latency', parsed.latency, 0);
  if (errorRate) faults.errorRate = errorRate;
  if (resetRate) {
    faults.resetBeforeRate = resetRate / 2;
    faults.resetAfterRate = resetRate / 2;
  }
  if (lostAnswerRate) {
    faults.serverErrorAfterRate = lostAnswerRate / 2;
    faults.brokenBodyAfterRate = lostAnswerRate / 2;
  }
  if (latency) faults.latencyMs = latency;
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (parsed.data !== undefined) options.dataFile = parsed.data;
  return options;
}

/** The demo account's plan and quota, as GET /me would say it. */
function quotaLine(sandbox: Sandbox): string {
  const { plan, linkQuota, used } = sandbox.linkQuotaOf(sandbox.demoAccountId);
  const quota = linkQuota === null ? 'unlimited links' : `${linkQuota} links a month`;
  return `Demo account: ${plan} plan, ${quota}, ${used} used this month (--plan-links <n> changes it)`;
}

async function main(): Promise<void> {
  let options: SandboxOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sandbox = await startSandbox(options);
  // A second key, on a plan without API access, to try the 403 by hand.
  const proKey = sandbox.createAccount({ name: 'Demo Pro', email: 'pro@example.com', plan: 'pro' }).apiKey;
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  process.stdout.write(
    [
      `Short-link sandbox listening on ${sandbox.baseUrl}`,
      `API base URL: ${sandbox.baseUrl}/api/v1 (OpenAPI: ${sandbox.baseUrl}/api/v1/openapi.json)`,
      `Rate limit: ${limit.limit} requests per ${limit.windowSeconds} s per key`,
      options.faults ? `Faults: ${JSON.stringify(options.faults)}` : 'Faults: off',
      options.dataFile ? `Data file: ${options.dataFile}` : 'Data: in memory',
      quotaLine(sandbox),
      `Pro plan key (no API access, answers 403): ${proKey}`,
      `API key: ${sandbox.apiKey}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Closing failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`The sandbox could not start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
