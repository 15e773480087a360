/**
 * Find or Create in a real n8n (the packed tarball as a community package), run twice over a sheet of 150
 * rows on a 2 500-link account seeded straight into the sandbox's store: 100 rows name links among the
 * oldest (beyond the newest 2 000 that the old scan reached), 50 are new, all with a UTM field. The first
 * run creates exactly the 50, the second creates nothing and returns the same ids, each run walks the
 * account once (one index per execution, shared by all items).
 *
 * The same n8n then runs the conformance table's subset (support/conformance-in-n8n.ts) in one workflow on
 * a demo fixture of its own, and checks each node's output as the table checks the core's.
 */
import { buildCampaignUrl } from '@shortlink/core';
import { startSandbox, type Sandbox } from '@shortlink/sandbox';
import { nodeOutput, type N8nInstance, type WorkflowJson } from '../../scripts/n8n/instance';
import { startOwnN8n, type OwnN8n } from './support/own-n8n';
import { startFixture } from '../conformance/support/fixtures';
import { normalize } from '../conformance/support/outcome';
import { checkExpected } from '../conformance/support/check-expected';
import { n8nOffers } from '../conformance/support/n8n-host';
import { TABLE, conformanceWorkflow, expectedInN8n, outcomeInN8n, sharedByCreates, subsetForN8n } from './support/conformance-in-n8n';

const CREDENTIAL = { id: 'slFindOrCreateCred', name: 'Short Link seeded account' };
const NODE = 'Find or create';

let sandbox: Sandbox;
let own: OwnN8n;
let n8n: N8nInstance;

function sheetWorkflow(rows: Array<{ url: string }>): WorkflowJson {
  return {
    id: 'slFocTwice',
    name: 'Short Link: find or create a sheet of campaign URLs',
    nodes: [
      { id: '00000000-0000-4000-8000-0000000000c1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      {
        id: '00000000-0000-4000-8000-0000000000c2',
        name: 'Sheet',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [220, 0],
        parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} },
      },
      { id: '00000000-0000-4000-8000-0000000000c3', name: 'One item per row', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [440, 0], parameters: { fieldToSplitOut: 'rows', options: {} } },
      {
        id: '00000000-0000-4000-8000-0000000000c4',
        name: NODE,
        type: 'n8n-nodes-shortlink.shortLink',
        typeVersion: 1,
        position: [660, 0],
        parameters: { resource: 'link', operation: 'findOrCreate', targetUrl: '={{ $json.url }}', utm: { source: 'sheet' } },
        credentials: { shortLinkApi: CREDENTIAL },
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Sheet', type: 'main', index: 0 }]] },
      Sheet: { main: [[{ node: 'One item per row', type: 'main', index: 0 }]] },
      'One item per row': { main: [[{ node: NODE, type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: false, rateLimit: { limit: 120, windowSeconds: 6 } });
  own = await startOwnN8n('foc');
  n8n = own.n8n;
}, 300_000);

afterAll(async () => {
  await own?.close();
  await sandbox?.close();
});

it('Find or Create over 150 rows, run twice: the oldest links found, 50 created once, 0 duplicates', async () => {
  const { accountId, apiKey } = sandbox.createAccount({ name: 'Seeded', email: 'seeded@example.com', plan: 'business' });
  // 100 campaign links made long ago with the UTM field the sheet uses, then 2 400 newer links on top.
  const campaign = (i: number) => `https://example.org/campaign/${i}`;
  const oldIds: string[] = [];
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ targetUrl: buildCampaignUrl(campaign(i), { source: 'sheet' }) }),
    });
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 6000));
      i--;
      continue;
    }
    oldIds.push(String(((await response.json()) as { id: string }).id));
  }
  // Strictly newer than the campaign links (1 ms apart, the oldest of them after the last campaign link).
  sandbox.seedLinks(accountId, 2_400, { label: 'newer', endAt: Date.now() + 2_500 });
  const rows = Array.from({ length: 150 }, (_, i) => ({ url: campaign(i) }));

  await n8n.importCredential({ ...CREDENTIAL, apiKey, baseUrl: sandbox.baseUrl });
  await n8n.importWorkflows([sheetWorkflow(rows)], CREDENTIAL);

  const runs = [];
  for (let run = 0; run < 2; run++) {
    const mark = sandbox.requests.length;
    const result = await n8n.execute('slFocTwice');
    const output = nodeOutput(result.run, NODE);
    expect(output).toHaveLength(150);
    const since = sandbox.requests.slice(mark).filter((r) => r.path.startsWith('/api/v1/'));
    runs.push({
      output,
      lists: since.filter((r) => r.method === 'GET' && r.path === '/api/v1/links').length,
      posts: since.filter((r) => r.method === 'POST').length,
    });
  }
  const [first, second] = runs;
  expect(first!.output.slice(0, 100).map((item) => String(item.id))).toEqual(oldIds);
  expect(first!.output.filter((item) => item.created === true)).toHaveLength(50);
  expect(first!.output[120]!.targetUrl).toBe('https://example.org/campaign/120?utm_source=sheet');
  // 2 500 links: 25 pages, then the 50 creates, each with its look for twins (one page; docs/guarantees.md, "Many callers").
  expect(first).toMatchObject({ lists: 75, posts: 50 });
  expect(second!.output.filter((item) => item.created === true)).toHaveLength(0);
  expect(second!.output.map((item) => item.id)).toEqual(first!.output.map((item) => item.id));
  expect(second).toMatchObject({ lists: 26, posts: 0 });
  expect(sandbox.links(accountId)).toHaveLength(2_550);
  expect(n8n.output).not.toContain(apiKey);
}, 600_000);

it('the conformance table in n8n: every case that can share one workflow on the demo fixture gives the expected outcome', async () => {
  const fixture = await startFixture('demo');
  try {
    const { ran, leftOut } = subsetForN8n(fixture);
    expect(sharedByCreates(ran)).toEqual([]);
    // No operation n8n offers drops out of the subset unnoticed.
    const offered = [...new Set(TABLE.map((testCase) => testCase.operation).filter(n8nOffers))];
    expect(offered.filter((operation) => !ran.some(({ testCase }) => testCase.operation === operation))).toEqual([]);
    const credential = { id: 'slConformanceCred', name: 'Short Link conformance demo' };
    await n8n.importCredential({ ...credential, apiKey: fixture.apiKey, baseUrl: fixture.baseUrl });
    await n8n.importWorkflows([conformanceWorkflow('slConformance', ran, credential)], credential);
    const result = await n8n.execute('slConformance');
    if (result.code !== 0 || !result.run || result.run.data.resultData.error) {
      throw new Error(`n8n execute failed (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-4000)}`);
    }

    const failures: string[] = [];
    for (const chosen of ran) {
      const { testCase, values } = chosen;
      const outcome = normalize(outcomeInN8n(result.run, testCase.name), fixture.baseUrl, values.slug);
      try {
        checkExpected(outcome, expectedInN8n(chosen));
      } catch (error) {
        failures.push(`${testCase.operation}: ${testCase.name}\n${(error as Error).message}`);
      }
    }
    const reasons = [...leftOut].map(([reason, names]) => `  ${names.length} ${reason}`);
    console.log(`conformance table in n8n: ${ran.length} of ${TABLE.length} cases ran in one workflow; ${TABLE.length - ran.length} left out:\n${reasons.join('\n')}`);
    expect(failures).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain(fixture.apiKey);
  } finally {
    await fixture.close();
  }
}, 600_000);
