/**
 * The cross-host conformance table (cases.json): every case runs through the core (runOperation), the
 * n8n node (its execute context) and the Zapier app (createAppTester), each on a fresh sandbox of the same
 * fixture over real HTTP. After each host's one formatting step is undone (docs/architecture.md, "Host
 * formatting steps"), the outputs must be equal: the same records, or an error whose message carries the
 * core's. A divergence fails the case. The built Zapier zip runs a subset in conformance-zip.test.ts, a real
 * n8n another in test/e2e/n8n-find-or-create.e2e.ts (test/e2e/support/conformance-in-n8n.ts).
 */
import cases from './cases.json';
import { startFixture, resolveValues, type ConformanceCase } from './support/fixtures';
import { normalize, type Outcome } from './support/outcome';
import { checkExpected } from './support/check-expected';
import { runCore } from './support/core-host';
import { n8nOffers, runN8n } from './support/n8n-host';
import { runZapier, zapierStepFor } from './support/zapier-host';

const table = cases.cases as ConformanceCase[];
type Host = 'core' | 'n8n' | 'zapier';

/** Runs one host on its own fresh fixture and returns its normalized outcome. */
async function outcomeOf(host: Host, testCase: ConformanceCase): Promise<Outcome | undefined> {
  const zapierStep = zapierStepFor(testCase.operation, testCase.values);
  if (host === 'zapier' && !zapierStep) return undefined;
  if (host === 'n8n' && !n8nOffers(testCase.operation)) return undefined;
  const fixture = await startFixture(testCase.account);
  try {
    const values = resolveValues(testCase.values, fixture);
    const timeZone = testCase.timeZone ?? 'UTC';
    const outcome =
      host === 'core' ? await runCore(testCase.operation, values, fixture, timeZone)
        : host === 'n8n' ? await runN8n(testCase.operation, values, fixture, timeZone)
          : await runZapier(zapierStep!, values, fixture, timeZone);
    return normalize(outcome, fixture.baseUrl, values.slug);
  } finally {
    await fixture.close();
  }
}

/** A host's outcome equals the core's: the same records, or a failure that says what the core says. */
function checkSame(host: Host, outcome: Outcome, core: Outcome): void {
  if ('records' in core) {
    expect({ host, ...outcome }).toEqual({ host, ...core });
    return;
  }
  expect({ host, failed: 'error' in outcome }).toEqual({ host, failed: true });
  const failure = outcome as { error: string; notFound: boolean };
  // Zapier's searches answer "nothing found" where the core says the link does not exist.
  if (host === 'zapier' && failure.error === '' && failure.notFound) {
    expect(core.notFound).toBe(true);
    return;
  }
  for (const part of core.parts ?? [core.error]) expect({ host, error: failure.error }).toEqual({ host, error: expect.stringContaining(part) });
}

it('has at least five cases per operation, each with bad input', () => {
  const byOperation = new Map<string, ConformanceCase[]>();
  for (const testCase of table) byOperation.set(testCase.operation, [...(byOperation.get(testCase.operation) ?? []), testCase]);
  const { OPERATIONS } = jest.requireActual<typeof import('@shortlink/core')>('@shortlink/core');
  for (const operation of OPERATIONS) {
    const own = byOperation.get(operation.key) ?? [];
    expect({ operation: operation.key, cases: Math.min(own.length, 5) }).toEqual({ operation: operation.key, cases: 5 });
    expect({ operation: operation.key, badInput: own.some((testCase) => 'error' in testCase.expect) }).toEqual({ operation: operation.key, badInput: true });
  }
  expect(new Set(table.map((testCase) => testCase.name)).size).toBe(table.length);
});

describe.each(table.map((testCase) => [`${testCase.operation}: ${testCase.name}`, testCase] as const))('%s', (_name, testCase) => {
  it('gives the same output through the core, n8n and Zapier', async () => {
    const core = (await outcomeOf('core', testCase))!;
    checkExpected(core, testCase.expect);
    for (const host of ['n8n', 'zapier'] as const) {
      const outcome = await outcomeOf(host, testCase);
      if (outcome) checkSame(host, outcome, core);
    }
  });
});
