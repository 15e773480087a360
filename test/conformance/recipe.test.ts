/**
 * The recipe of docs/architecture.md ("How to add an operation"), tried: a throwaway operation (Archive,
 * recipe/archive-link.ts) is added the way the recipe says — its module, its line in OPERATIONS (here: the
 * operations index with that one line more, for this test's module registry only), its conformance cases
 * (recipe/cases.json) — and nothing per host. The n8n node built from its sources, the Zapier app and the
 * MCP server then offer it, and its cases give the same outputs through the core and all three, as in the
 * table. The recipe's own text is checked to name exactly these steps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import recipeCases from './recipe/cases.json';
import type { ConformanceCase } from './support/fixtures';

const ROOT = join(__dirname, '..', '..');
const OPERATIONS_INDEX = join(ROOT, 'packages', 'core', 'src', 'operations', 'index.ts');
const table = recipeCases.cases as ConformanceCase[];

type Modules = {
  core: typeof import('@shortlink/core/operations');
  fixtures: typeof import('./support/fixtures');
  outcome: typeof import('./support/outcome');
  expected: typeof import('./support/check-expected');
  compare: typeof import('./support/compare');
  coreHost: typeof import('./support/core-host');
  n8nHost: typeof import('./support/n8n-host');
  zapierHost: typeof import('./support/zapier-host');
  mcpHost: typeof import('./support/mcp-host');
  node: typeof import('../../packages/n8n-nodes-shortlink/nodes/ShortLink/ShortLink.node');
  zapier: typeof import('../../packages/zapier/src');
  mcpTools: typeof import('../../packages/mcp/src/tools');
};

let m = {} as Modules;

// At collection time (the hosts' test harnesses add hooks when they load): one module registry for this file.
{
  jest.isolateModules(() => {
    // The recipe's step 1, "one line to OPERATIONS": the index as it would read with the new line.
    jest.doMock(OPERATIONS_INDEX, () => {
      const actual = jest.requireActual<typeof import('../../packages/core/src/operations')>(OPERATIONS_INDEX);
      const { archiveLink } = jest.requireActual<typeof import('./recipe/archive-link')>('./recipe/archive-link');
      const OPERATIONS = [...actual.OPERATIONS, archiveLink];
      const operationByKey = (key: string) => {
        const operation = OPERATIONS.find((candidate) => candidate.key === key);
        if (!operation) throw new Error(`No operation ${key}`);
        return operation;
      };
      return { ...actual, OPERATIONS, operationByKey };
    });
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the mock, inside this file's own module registry */
    m = {
      core: require('@shortlink/core/operations'),
      fixtures: require('./support/fixtures'),
      outcome: require('./support/outcome'),
      expected: require('./support/check-expected'),
      compare: require('./support/compare'),
      coreHost: require('./support/core-host'),
      n8nHost: require('./support/n8n-host'),
      zapierHost: require('./support/zapier-host'),
      mcpHost: require('./support/mcp-host'),
      node: require('../../packages/n8n-nodes-shortlink/nodes/ShortLink/ShortLink.node'),
      zapier: require('../../packages/zapier/src'),
      mcpTools: require('../../packages/mcp/src/tools'),
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  // The node as n8n would load it from this source tree (the built dist/ does not have the new operation).
  m.n8nHost.useN8nNode(new m.node.ShortLink());
}

afterAll(() => jest.dontMock(OPERATIONS_INDEX));

test('the recipe names the module, its line in OPERATIONS, its cases and its docs, and nothing per host', () => {
  const architecture = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const recipe = architecture.split('## How to add an operation')[1]!.split('\n## ')[0]!;
  const steps = recipe.split(/\n(?=\d+\. )/).filter((step) => /^\d+\. /.test(step)).map((step) => step.replace(/\s+/g, ' '));
  expect(steps.map((step) => /^\d+\. \*\*([^*]+)\*\*/.exec(step)?.[1])).toEqual(['Core.', 'Cases.', 'Hosts.', 'Docs.']);
  expect(steps[0]).toContain('packages/core/src/operations/<resource>/<name>.ts');
  expect(steps[0]).toContain('`OPERATIONS`');
  expect(steps[1]).toContain('test/conformance/cases.json');
  expect(steps[2]).toMatch(/^3\. \*\*Hosts\.\*\* Nothing/);
});

test('every host offers the new operation without a line of its own', () => {
  const archive = m.core.operationByKey('link.archive');
  expect(m.core.OPERATIONS).toContain(archive);
  // n8n: in the Link resource's Operation dropdown, with the core's label and the generated action text.
  const n8n = new m.node.ShortLink().description;
  const operations = n8n.properties.find((property) => property.name === 'operation' && (property.displayOptions?.show?.resource as string[]).includes('link'));
  expect(operations?.options).toContainEqual(expect.objectContaining({ name: 'Archive', value: 'archive', action: 'Archive a link' }));
  // Zapier: a create (it writes), its outputs and sample generated from the core's.
  const step = (m.zapier.creates as Record<string, { display: { label: string; description: string }; operation: { outputFields: Array<{ key: string }>; sample: object } }>).archive_link!;
  expect(step.display.label).toBe('Archive Link');
  expect(step.display.description).toContain('Safe to repeat: a link already paused stays paused.');
  expect(step.operation.outputFields.map((field) => field.key)).toContain('shortUrl');
  expect(step.operation.sample).toMatchObject({ active: false });
  // MCP: a tool named after its resource and label.
  expect(m.mcpTools.shortLinkTools().map((tool) => tool.name)).toContain('link_archive');
});

describe.each(table.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
  test('gives the same output through the core, n8n, Zapier and MCP', async () => {
    const outcomeOf = async (host: 'core' | 'core for agents' | 'n8n' | 'zapier' | 'mcp') => {
      const fixture = await m.fixtures.startFixture(testCase.account);
      try {
        const values = m.fixtures.resolveValues(testCase.values, fixture);
        const outcome =
          host === 'core' || host === 'core for agents' ? await m.coreHost.runCore(testCase.operation, values, fixture, 'UTC', host === 'core' ? 'person' : 'agent')
            : host === 'n8n' ? await m.n8nHost.runN8n(testCase.operation, values, fixture, 'UTC')
              : host === 'zapier' ? await m.zapierHost.runZapier(m.zapierHost.zapierStepFor(testCase.operation, testCase.values)!, values, fixture, 'UTC')
                : await m.mcpHost.runMcp(m.mcpHost.mcpToolFor(testCase.operation, testCase.values)!, values, fixture, 'UTC', testCase.operation);
        return m.outcome.normalize(outcome, fixture.baseUrl, values.slug);
      } finally {
        await fixture.close();
      }
    };
    const core = await outcomeOf('core');
    m.expected.checkExpected(core, testCase.expect);
    expect(m.n8nHost.n8nOffers(testCase.operation)).toBe(true);
    // MCP's refusals are in the words the core gives agents.
    for (const host of ['n8n', 'zapier', 'mcp'] as const) m.compare.checkSame(host, await outcomeOf(host), host === 'mcp' && 'error' in core ? await outcomeOf('core for agents') : core);
  });
});
