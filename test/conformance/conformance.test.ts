/**
 * The cross-host conformance table (cases.json): every case runs through the core (runOperation) and every
 * host that offers its operation — the n8n node (its execute context), the Zapier app (createAppTester) and
 * the MCP server (the SDK's client) — each on a fresh sandbox of the same fixture over real HTTP. After each
 * host's one formatting step is undone (docs/architecture.md, "Host formatting steps"), the outputs must be
 * equal: the same records, summary, notices and files wherever the host shows them, or an error whose message
 * carries the core's. Trigger cases run a sequence of polls with the state each host keeps. Which host offers
 * what, and as what, is the core's exposure table; the coverage test lists every operation and trigger ×
 * host as run or as not offered on purpose, with the reason. The built Zapier zip runs a subset in
 * conformance-zip.test.ts, a real n8n another in test/e2e/n8n-find-or-create.e2e.ts
 * (test/e2e/support/conformance-in-n8n.ts).
 */
import { exposureOf, isOffered, triggerExposureOf } from '@shortlink/core/host';
import { OPERATIONS, TRIGGERS } from '@shortlink/core/operations';
import cases from './cases.json';
import { startFixture, resolveValues, type ConformanceCase } from './support/fixtures';
import { normalize, type Outcome } from './support/outcome';
import { checkExpected } from './support/check-expected';
import { checkSame, type HostName } from './support/compare';
import { runCore } from './support/core-host';
import { mcpToolFor, runMcp } from './support/mcp-host';
import { n8nOffers, runN8n } from './support/n8n-host';
import { runZapier, zapierStepFor } from './support/zapier-host';
import { runTriggerCase, triggerHostsFor, type TriggerCase } from './support/trigger-hosts';

const table = cases.cases as ConformanceCase[];
const triggerTable = cases.triggers as TriggerCase[];
const HOSTS: readonly HostName[] = ['n8n', 'zapier', 'mcp'];

/** Whether a host runs the case: it offers the operation, and a step or tool of it takes the case's values. */
function runsOn(host: HostName, testCase: ConformanceCase): boolean {
  if (host === 'n8n') return n8nOffers(testCase.operation);
  if (host === 'zapier') return zapierStepFor(testCase.operation, testCase.values) !== undefined;
  return mcpToolFor(testCase.operation, testCase.values) !== undefined;
}

/** Runs one host on its own fresh fixture and returns its normalized outcome. */
async function outcomeOf(host: 'core' | 'core for agents' | HostName, testCase: ConformanceCase): Promise<Outcome> {
  const fixture = await startFixture(testCase.account);
  try {
    const values = resolveValues(testCase.values, fixture);
    const timeZone = testCase.timeZone ?? 'UTC';
    const outcome =
      host === 'core' || host === 'core for agents' ? await runCore(testCase.operation, values, fixture, timeZone, host === 'core' ? 'person' : 'agent')
        : host === 'n8n' ? await runN8n(testCase.operation, values, fixture, timeZone)
          : host === 'zapier' ? await runZapier(zapierStepFor(testCase.operation, testCase.values)!, values, fixture, timeZone)
            : await runMcp(mcpToolFor(testCase.operation, testCase.values)!, values, fixture, timeZone, testCase.operation);
    return normalize(outcome, fixture.baseUrl, values.slug);
  } finally {
    await fixture.close();
  }
}

/** What a host must equal: the core's outcome, or for MCP a refusal in the words the core gives agents. */
async function referenceFor(host: HostName, testCase: ConformanceCase, core: Outcome): Promise<Outcome> {
  return host === 'mcp' && 'error' in core ? outcomeOf('core for agents', testCase) : core;
}

it('has at least five cases per operation, each with bad input, and two per trigger', () => {
  for (const operation of OPERATIONS) {
    const own = table.filter((testCase) => testCase.operation === operation.key);
    expect({ operation: operation.key, cases: Math.min(own.length, 5) }).toEqual({ operation: operation.key, cases: 5 });
    expect({ operation: operation.key, badInput: own.some((testCase) => 'error' in testCase.expect) }).toEqual({ operation: operation.key, badInput: true });
  }
  for (const trigger of TRIGGERS) {
    const own = triggerTable.filter((testCase) => testCase.trigger === trigger.key);
    expect({ trigger: trigger.key, cases: Math.min(own.length, 2) }).toEqual({ trigger: trigger.key, cases: 2 });
  }
  expect(new Set([...table, ...triggerTable].map((testCase) => testCase.name)).size).toBe(table.length + triggerTable.length);
});

/**
 * Every operation and trigger × host: run by at least one case, or not offered on purpose (the exposure
 * table's reason). Printed as the table's coverage.
 */
it('accounts for every operation and trigger on every host', () => {
  const lines: string[] = [];
  const missing: string[] = [];
  for (const operation of OPERATIONS) {
    const exposure = exposureOf(operation);
    for (const host of HOSTS) {
      const offered = exposure[host];
      const run = table.filter((testCase) => testCase.operation === operation.key && runsOn(host, testCase)).length;
      if (!isOffered(offered)) lines.push(`${operation.key} × ${host}: not offered on purpose, because ${offered.notOffered}`);
      else if (run > 0) lines.push(`${operation.key} × ${host}: ${run} case(s) run`);
      else missing.push(`${operation.key} × ${host}`);
    }
  }
  for (const trigger of TRIGGERS) {
    const exposure = triggerExposureOf(trigger);
    for (const host of HOSTS) {
      const offered = exposure[host];
      const run = triggerTable.filter((testCase) => testCase.trigger === trigger.key && (triggerHostsFor(testCase) as string[]).includes(host)).length;
      if (!isOffered(offered)) lines.push(`${trigger.key} × ${host}: not offered on purpose, because ${offered.notOffered}`);
      else if (run > 0) lines.push(`${trigger.key} × ${host}: ${run} case(s) run`);
      else missing.push(`${trigger.key} × ${host}`);
    }
  }
  if (process.env.CONFORMANCE_COVERAGE) console.log(lines.join('\n'));
  expect({ unaccounted: missing }).toEqual({ unaccounted: [] });
});

describe.each(table.map((testCase) => [`${testCase.operation}: ${testCase.name}`, testCase] as const))('%s', (_name, testCase) => {
  it('gives the same output through the core and every host that offers it', async () => {
    const core = await outcomeOf('core', testCase);
    checkExpected(core, testCase.expect);
    for (const host of HOSTS.filter((candidate) => runsOn(candidate, testCase))) checkSame(host, await outcomeOf(host, testCase), await referenceFor(host, testCase, core));
  });
});

describe.each(triggerTable.map((testCase) => [`${testCase.trigger}: ${testCase.name}`, testCase] as const))('%s', (_name, testCase) => {
  it('gives the same polls through the core and every host that offers the trigger', async () => {
    const core = await runTriggerCase('core', testCase);
    const expected = testCase.steps.flatMap((step) => ('poll' in step ? [step.poll] : []));
    expect(core).toHaveLength(expected.length);
    core.forEach((outcome, index) => checkExpected(outcome, expected[index]!));
    for (const host of triggerHostsFor(testCase).filter((candidate) => candidate !== 'core')) {
      const polls = await runTriggerCase(host, testCase);
      // Zapier's first poll of a Zap only fills its dedupe table: nothing fires, whatever the core hands out.
      const reference = host === 'zapier' ? core.map((outcome, index) => (index === 0 && 'records' in outcome ? { records: [] } : outcome)) : core;
      polls.forEach((outcome, index) => checkSame(host as HostName, outcome, reference[index]!));
    }
  });
});
